#!/usr/bin/env bash
# NVRTC (sm_90) and hiprtc (gfx90a) compile every variant of the generated
# sum/i32 source without a GPU, and of its rows and columns (every name
# expression their manifests give). Skipped (77) when neither compiler is
# here.
set -u
rtc=$1 gen=$2 root=$3
out=$(mktemp -d) && trap 'rm -rf "$out"' EXIT
if [ -n "$gen" ]; then
  "$gen" --no-check --type=i32 -o "$out" "$root/codelets/sum.tgm" || exit 1
  m=$out/sum_i32.json
else
  m=$root/generated/sum_i32.json
fi
[ -f "$m" ] || { echo "skipped: no generated sum_i32.json"; exit 77; }
shaped=()
for s in rows cols; do
  if [ -n "$gen" ]; then
    "$gen" --no-check --$s --type=i32 -o "$out/$s" "$root/codelets/sum.tgm" || exit 1
    shaped+=("$out/$s/sum_i32_$s.json")
  else
    shaped+=("$root/generated/$s/sum_i32_$s.json")
  fi
done
ran=0
for x in "$m" "${shaped[@]}"; do
  "$rtc" cuda sm_90 "$x" 1; rc=$?
  case $rc in 0) ran=1 ;; 77) ;; *) exit 1 ;; esac
  "$rtc" hip gfx90a "$x" 1; rc=$?
  case $rc in 0) ran=1 ;; 77) ;; *) exit 1 ;; esac
done
[ $ran -eq 1 ] || exit 77
