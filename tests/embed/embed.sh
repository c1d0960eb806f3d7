#!/usr/bin/env bash
# tgm-gen --embed: from one variant and from a tuning database; the errors;
# and, given a compiler, the six headers (sum/max/min x i32/f32) compiled
# together.
#   embed.sh TGM_GEN ROOT cli | cuda NVCC | hip HIPCC
set -u
gen=$1 root=$2 what=$3 cc=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$root" || exit 1

if [ "$what" = cli ]; then
  "$gen" --embed --variant=DSL.VS.SV -o "$work/a.cuh" codelets/sum.tgm || fail "--variant"
  grep -q 'inline cudaError_t tgm_sum_i32(void \*d_temp, size_t \*temp_bytes, const int32_t \*d_in, int32_t \*d_out,' "$work/a.cuh" || fail "entry point"
  grep -q 'launch_sum_DSL_VS_SV<256>' "$work/a.cuh" || fail "the variant's launcher"
  ! grep -q 'sum_DT_V_ST' "$work/a.cuh" || fail "only the chosen variant"
  "$gen" --embed --hip --variant=DT.VS.SS --type=f32 -o "$work/a.hip.h" codelets/min.tgm || fail "--hip"
  grep -q 'inline hipError_t tgm_min_f32(' "$work/a.hip.h" || fail "HIP entry point"
  # errors: exit 1 (input) or 2 (usage), one line, nothing written
  "$gen" --embed --variant=NO.SUCH.ID -o "$work/b.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "no variant 'NO.SUCH.ID'" "$work/err" && [ ! -e "$work/b.cuh" ] || fail "unknown variant ($rc)"
  "$gen" --embed --variant=DT.VR.SS --type=f32 -o "$work/b.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "left out.*no warp-reduce instruction" "$work/err" || fail "left-out variant ($rc)"
  "$gen" --embed --variant=DT.V.SS codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "--embed without -o"
  "$gen" --embed --variant=DT.V.SS --type=i32,f32 -o "$work/b.cuh" codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "two types"
  "$gen" --variant=DT.V.SS codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "--variant without --embed"

  # a database as tgm-tune writes it, for this version of sum.tgm
  "$gen" -o "$work/m" codelets/sum.tgm || exit 1
  hash=$(sed -n 's/.*"source_hash": "\([0-9a-f]*\)".*/\1/p' "$work/m/sum_i32.json")
  db() { # db TYPE HASH
    cat <<JSON
{"tgm_db": 1, "entries": [{"key": {"device": "NVIDIA H100 80GB HBM3", "cc": "9.0", "sm_count": 132,
 "driver": "13000", "compiler": "13.0", "type": "$1", "op": "sum", "mode": "stream", "source_hash": "$2",
 "deterministic": false, "hot_l2": false}, "results": [],
 "buckets": [{"from_log2n": 10, "to_log2n": 15, "variant": "B1.VS.SV", "block": 512, "items": 1, "grid_cap_per_sm": 0},
             {"from_log2n": 16, "to_log2n": 22, "variant": "DSL.VR.SV", "block": 256, "items": 1, "grid_cap_per_sm": 4},
             {"from_log2n": 23, "to_log2n": 30, "variant": "DTA.VS.SV", "block": 256, "items": 16, "grid_cap_per_sm": 0}]}]}
JSON
  }
  db i32 "$hash" >"$work/db.json"
  "$gen" --embed="$work/db.json" -o "$work/t.cuh" codelets/sum.tgm || fail "--embed=DB"
  grep -q 'if (n < ((size_t)1 << 16)) { // B1.VS.SV, block 512' "$work/t.cuh" || fail "first bucket"
  grep -q 'if (n < ((size_t)1 << 23)) { // DSL.VR.SV, block 256, items 1, 4 blocks per SM' "$work/t.cuh" || fail "second bucket"
  grep -q 'if (true) { // DTA.VS.SV, block 256, items 16' "$work/t.cuh" || fail "last bucket"
  echo '{"tgm_db": 1, "entries": [' >"$work/bad.json"
  "$gen" --embed="$work/bad.json" -o "$work/c.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "bad.json:[0-9]*:[0-9]*: error: not a tuning database" "$work/err" && [ ! -e "$work/c.cuh" ] || fail "corrupt database ($rc)"
  db f64 "$hash" >"$work/foreign.json"
  "$gen" --embed="$work/foreign.json" -o "$work/c.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "no tuned sum i32 in the database" "$work/err" || fail "foreign database ($rc)"
  db i32 0123456789abcdef >"$work/stale.json"
  "$gen" --embed="$work/stale.json" -o "$work/c.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "tuned for another source" "$work/err" || fail "stale database ($rc)"
else
  for t in i32 f32; do
    for s in sum max min; do
      if [ "$what" = hip ]; then
        "$gen" --embed --hip --variant=DTL.VS.SV --type=$t -o "$work/${s}_$t.h" "codelets/$s.tgm" || fail "$s $t"
      else
        "$gen" --embed --variant=DTL.VS.SV --type=$t -o "$work/${s}_$t.h" "codelets/$s.tgm" || fail "$s $t"
      fi
    done
  done
  if [ "$what" = cuda ]; then
    "$cc" -std=c++17 -arch=sm_90 -Werror all-warnings -DTGM_STREAM=cudaStream_t -I"$work" -c -x cu \
      tests/embed/all.cu -o "$work/all.o" || fail "nvcc sm_90"
  else
    "$cc" --offload-arch=gfx90a -std=c++17 -Werror -DTGM_STREAM=hipStream_t -include hip/hip_runtime.h \
      -I"$work" -c -x hip tests/embed/all.cu -o "$work/all.o" || fail "hipcc gfx90a"
  fi
fi
[ $fails -eq 0 ] && echo "ok embed $what"
exit $((fails > 0))
