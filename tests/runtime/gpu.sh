#!/usr/bin/env bash
# GPU truth (label gpu): every variant and knob setting of every generated
# manifest verified on the real GPU against the spectrum's own scalar codelet
# (tgm_reference_kernel) at the sizes of the sim suite and past 2^22 (the
# reference folds up to 1024 parts past 1024 elements), and every variant of sum/i32 at 2^31+5
# elements (64-bit indexing). A spectrum's parameters get fixed values here.
# Skipped (77) without a GPU. Manifests: generated now with tgm-gen when it
# is given, else $TGM_GEN_DIR, else generated/.
set -u
tune=$1 gen=$2 root=$3
dir=${TGM_GEN_DIR:-}
if [ -z "$dir" ]; then
  if [ -n "$gen" ]; then
    dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
    for c in sum max min; do
      "$gen" --no-check --type=i32,f32 -o "$dir" "$root/codelets/$c.tgm" || exit 1
    done
  else
    dir=$root/generated
  fi
fi
sizes=0,1,2,31,32,33,255,256,257,1000,4097,65537,1048579,4194309
fail=0
for m in "$dir"/*.json; do
  [ -f "$m" ] || { echo "skipped: no manifests in $dir"; exit 77; }
  params=()
  case $(basename "$m") in count_if_*) params=(--param threshold=2) ;; esac
  "$tune" "$m" --verify-only --verify-sizes $sizes --quiet "${params[@]}"
  rc=$?
  echo "$(basename "$m"): exit $rc"
  [ $rc -eq 3 ] && { echo "skipped: no GPU"; exit 77; }
  [ $rc -eq 0 ] || fail=1
done
if [ -f "$dir/sum_i32.json" ]; then
  "$tune" "$dir/sum_i32.json" --verify-only --verify-sizes 2147483653 --default-knobs --quiet || fail=1
  # more variants than the tuner once held (256): sum/i32's, three times
  # over under other ids; every one is compiled and verified
  big=$(mktemp -d)
  cp "$dir"/sum_i32.* "$big/"
  python3 - "$big/sum_i32.json" <<'PY' || fail=1
import json, sys
p = sys.argv[1]
m = json.load(open(p))
vs = m["variants"]
m["variants"] = [dict(v, id=f"{v['id']}.{k}") for k in range(3) for v in vs]
assert len(m["variants"]) > 256
json.dump(m, open(p, "w"))
PY
  one=$("$tune" "$dir/sum_i32.json" --verify-only --verify-sizes 33,4097 --default-knobs --quiet |
        sed -n 's/^verified \([0-9]*\) settings.*/\1/p')
  out=$("$tune" "$big/sum_i32.json" --verify-only --verify-sizes 33,4097 --default-knobs --quiet)
  rc=$?
  echo "$out" | tail -1
  echo "$out" | grep -q "^verified $((3 * one)) settings" && [ $rc -eq 0 ] ||
    { echo "FAIL: $((3 * one)) variants: exit $rc"; fail=1; }
  rm -rf "$big"
fi
exit $fail
