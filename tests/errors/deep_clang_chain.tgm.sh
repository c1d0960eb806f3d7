#!/usr/bin/env bash
# Writes a codelet whose one expression is a chain of 100000 '+0': clang's
# parser recursed once a level on its 8 MiB thread and overflowed it, a
# crash before any error of tgm's. Now an error from the tokens, before
# clang, past 4000 operators in one statement.
printf '__codelet __tag(scalar)\nT sum(const Array<1,T> in) {\n  T accum = 0;\n'
printf '  for (unsigned i = 0; i < in.Size(); i += in.Stride())\n    accum += in[i]'
for ((i = 0; i < 100000; i++)); do printf '+0'; done
printf ';\n  return accum;\n}\n'
