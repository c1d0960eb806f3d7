#!/usr/bin/env bash
# reduce_api.sh TGM_GEN OUT: tgm/reduce_spectra.h, tgm_reduce's typed calls
# for every shipped codelet and every type its codelets compile for (the
# bitwise ones: integers only). scripts/generate.sh writes it into
# runtime/reduce/include/tgm/; tests/generated_fresh.sh checks it is fresh.
set -euo pipefail
gen=$1 out=$2
cd "$(dirname "$0")/.."
files=()
for c in codelets/*.tgm; do
  case $(basename "$c") in
  bit_*) files+=("i32,u32,i64:$c") ;;
  *) files+=("$c") ;;
  esac
done
"$gen" --reduce-api --type=i32,u32,i64,f32,f64 -o "$out" "${files[@]}"
