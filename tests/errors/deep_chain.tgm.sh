#!/usr/bin/env bash
# Writes a codelet whose one expression is a chain of 3000 '+ 0': every
# pass walks the tree recursively, and 30000 overflowed the stack converting
# clang's tree (a crash). Now a located error past 1000 levels (past 4000
# operators the token scan stops it before clang: deep_clang_chain).
printf '__codelet __tag(scalar)\nT sum(const Array<1,T> in) {\n  T accum = 0;\n'
printf '  for (unsigned i = 0; i < in.Size(); i += in.Stride())\n    accum += in[i]'
for ((i = 0; i < 3000; i++)); do printf ' + 0'; done
printf ';\n  return accum;\n}\n'
