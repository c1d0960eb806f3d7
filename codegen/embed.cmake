# Turns a text file into a C string: cmake -DIN=file -DOUT=file.c -P embed.cmake
file(READ ${IN} text HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${text}")
file(WRITE ${OUT} "/* generated from prelude.h -- do not edit */\n"
  "const char tgm_prelude_text[] = {${bytes} 0x00};\n")
