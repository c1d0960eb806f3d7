# The C settings every tgm project shares -- the top level, and runtime/ and
# runtime/reduce/ when configured on their own (the GPU machine, which has no
# libclang): C17, warnings, -Werror with TGM_WERROR, POSIX 2008.
set(CMAKE_C_STANDARD 17)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)
option(TGM_WERROR "Treat warnings as errors" OFF)
add_compile_options(-Wall -Wextra)
add_compile_definitions(_XOPEN_SOURCE=700)
if(TGM_WERROR)
  add_compile_options(-Werror)
endif()
