#!/usr/bin/env bash
# Writes a codelet with an else-if chain 3000 long: nested 3000 statements
# deep, past what tgm converts (1000): a located error, not a crash (past
# 4000 the token scan stops it before clang: deep_clang_elif).
printf '__codelet __tag(scalar)\nT sum(const Array<1,T> in) {\n  T accum = 0;\n'
printf '  for (unsigned i = 0; i < in.Size(); i += in.Stride()) {\n'
printf '    if (in[i] == 0)\n      accum += in[i];\n'
for ((i = 1; i < 3000; i++)); do printf '    else if (in[i] == %d)\n      accum += in[i];\n' "$i"; done
printf '    else\n      accum += in[i];\n  }\n  return accum;\n}\n'
