#!/usr/bin/env bash
# tgm-gen --embed: from one variant and from a tuning database; the
# database's checks (tgm-tune's reader, and every bucket against the
# manifest); several GPUs in one header; tests/embed/headers (what the GPU
# test uses) fresh; and, given a compiler, the headers compiled together
# (six untuned, six of several GPUs).
#   embed.sh TGM_GEN ROOT cli | fresh | cuda NVCC | hip HIPCC
# TGM_BLESS=1 with `fresh` rewrites tests/embed/headers.
set -u
gen=$1 root=$2 what=$3 cc=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$root" || exit 1

# The six headers sum/max/min x i32/f32 of several GPUs into DIR (cuda: the
# H100 and the H200 of the fixture, mode stream; hip: the fixture's AMD
# GPUs), made in DIR so that the paths they name are the same everywhere.
several() { # several DIR cuda|hip
  local dir=$1 dialect=$2 flags=--mode=stream s t
  [ "$dialect" = hip ] && flags=--hip
  mkdir -p "$dir" && ln -sfn "$root/codelets" "$dir/codelets" &&
    bash tests/embed/gpus_db.sh "$gen" "$root" "$dir/gpus.db.json" || return 1
  for t in i32 f32; do
    for s in sum max min; do
      (cd "$dir" && "$gen" --embed=gpus.db.json $flags --type=$t -o "${s}_$t.h" "codelets/$s.tgm") || return 1
    done
  done
  rm -f "$dir/codelets" "$dir/gpus.db.json"
}

# The row and column calls of sum/max/min x i32/f32 into DIR
# (NAME_rows_TYPE.h, NAME_cols_TYPE.h), unchecked: sim.rows.* and sim.cols.*
# run every variant; [hip] for HIP headers.
shaped() { # shaped DIR [--hip]
  local dir=$1 flag=${2:-} s t shape
  mkdir -p "$dir" || return 1
  for shape in rows cols; do
    for t in i32 f32; do
      for s in sum max min; do
        "$gen" --$shape --embed --no-check $flag --type=$t -o "$dir/${s}_${shape}_$t.h" "codelets/$s.tgm" || return 1
      done
    done
  done
}

if [ "$what" = cli ]; then
  # the row and column calls: checked first, picked at run time
  "$gen" --cols --embed --type=i32 -o "$work/shaped_c.cuh" codelets/sum.tgm 2>"$work/err" || fail "--cols --embed"
  grep -q "checked sum_i32_cols on the CPU" "$work/err" || fail "--cols --embed checks its variants first"
  grep -q 'inline cudaError_t tgm_sum_cols_i32(void \*d_temp, size_t \*temp_bytes, const int32_t \*d_in, int32_t \*d_out, size_t m,' "$work/shaped_c.cuh" ||
    fail "the column entry point"
  grep -q 'tgm_cols_pick_of(m, n, sms, TGM_VW, tgm_cols_atomics)' "$work/shaped_c.cuh" && grep -q 'const unsigned width = k.groups;' "$work/shaped_c.cuh" && grep -q '\*early = major >= 9;' "$work/shaped_c.cuh" &&
    grep -q 'case 1024: return (atomic ? launch_sum_CA_SV<1024> : launch_sum_CT_SV<1024>)(in, m, n, ld, out, temp, temp_bytes, k.parts, width, stream, early)' "$work/shaped_c.cuh" || fail "the column pick (CT.SV, CA.SV in parts)"
  "$gen" --cols --embed --no-check --type=f32 -o "$work/shaped_m.cuh" codelets/mean.tgm &&
    grep -q 'tgm_cols_pick_of(m, n, sms, TGM_VW, 0)' "$work/shaped_m.cuh" && ! grep -q 'mean_CA_SV' "$work/shaped_m.cuh" ||
    fail "an epilogue (mean): no atomics"
  ! grep -q '#if defined(TGM_DETERMINISTIC)' "$work/shaped_c.cuh" || fail "integer sums: atomics are exact, TGM_DETERMINISTIC need not ask"
  "$gen" --cols --embed --no-check --type=f32 -o "$work/shaped_f.cuh" codelets/sum.tgm && grep -q '#if defined(TGM_DETERMINISTIC)' "$work/shaped_f.cuh" ||
    fail "float sums: TGM_DETERMINISTIC leaves CA.SV"
  "$gen" --cols --embed --no-check --type=f32 -o "$work/shaped_d.cuh" codelets/dot.tgm && grep -q 'launch_dot_CT_SS<128>(x, y, m, n, ld, out, temp, temp_bytes, k.parts, width, stream, early)' "$work/shaped_d.cuh" ||
    fail "two inputs: scalar column loads"
  "$gen" --rows --embed --no-check --type=f32 -o "$work/shaped_r.cuh" codelets/sum.tgm || fail "--rows --embed"
  grep -q 'inline cudaError_t tgm_sum_rows_f32(void \*d_temp, size_t \*temp_bytes, const float \*d_in, float \*d_out, size_t m,' "$work/shaped_r.cuh" ||
    fail "the row entry point"
  for k in RW_VS_SS RW_VS_SV RB_VW_SV RL_VW_SV; do
    grep -q "launch_sum_$k<128>" "$work/shaped_r.cuh" || fail "the row kind $k"
  done
  ! grep -q 'sum_RW_V_SS\|sum_RB_VA1' "$work/shaped_r.cuh" || fail "only the picked variants"
  # RA: the rule's blocks a row combined with atomics, after tgm_init_out
  grep -q 'launch_sum_RA_VW_SV<256>(in, m, n, ld, out, temp, temp_bytes, k.items, k.per_row, stream, early)' "$work/shaped_r.cuh" &&
    grep -q 'tgm_rows_pick_of(m, n, sms, max_threads, sm_gbps, tgm_rows_atomics)' "$work/shaped_r.cuh" &&
    grep -q 'TGM_LAUNCH(tgm_init_out, tgm_init_out_grid(m), 256, stream, out, m);' "$work/shaped_r.cuh" || fail "the row pick's RA"
  grep -q '#if defined(TGM_DETERMINISTIC)' "$work/shaped_r.cuh" || fail "float row sums: TGM_DETERMINISTIC leaves RA"
  "$gen" --rows --embed --no-check --type=i32 -o "$work/shaped_ri.cuh" codelets/max.tgm &&
    grep -q 'tgm_rows_pick_of(m, n, sms, max_threads, sm_gbps, tgm_rows_atomics)' "$work/shaped_ri.cuh" &&
    ! grep -q '#if defined(TGM_DETERMINISTIC)' "$work/shaped_ri.cuh" || fail "integer row max: RA, exact"
  "$gen" --rows --embed --no-check --type=f32 -o "$work/shaped_rl2.cuh" codelets/l2norm.tgm &&
    grep -q 'tgm_rows_pick_of(m, n, sms, max_threads, sm_gbps, 0)' "$work/shaped_rl2.cuh" && ! grep -q 'l2norm_RA_' "$work/shaped_rl2.cuh" ||
    fail "an epilogue (l2norm): no row atomics"
  "$gen" --rows --embed --no-check --hip --type=f32 -o "$work/shaped_r.hip.h" codelets/argmax.tgm || fail "--rows --embed --hip"
  grep -q 'inline hipError_t tgm_argmax_rows_f32(void \*d_temp, size_t \*temp_bytes, const float \*d_in, tgm_kernels_argmax_f32_rows::tgm_arg \*d_out,' "$work/shaped_r.hip.h" ||
    fail "an argmax row entry point for HIP"
  # tgm-tune's cells (--embed=DB): the fixture's, checked against the manifest
  bash tests/embed/shapes_db.sh "$gen" "$root" "$work/shapes.db.json" || fail "shapes_db.sh"
  "$gen" --rows --embed="$work/shapes.db.json" --no-check --type=f32 -o "$work/tuned_r.cuh" codelets/sum.tgm ||
    fail "--rows --embed=DB"
  grep -q '{7, 13, 3, 128, 1, 256, 0, 0}, // RL.VS.SV' "$work/tuned_r.cuh" && grep -q 'launch_sum_RW_VA2S_SS<1024>' "$work/tuned_r.cuh" &&
    grep -q 'k.slot == 3 && tgm_rows_parts_fit(m, k.per_row)' "$work/tuned_r.cuh" || fail "the tuned row cells and their variants"
  # a tuned RA cell: no counters to clear, its rows within the grid's
  grep -q '{5, 15, 2, 512, 1, 3, 0, 0}, // RA.V.SV' "$work/tuned_r.cuh" && grep -q 'k.slot == 2 && m <= 65535' "$work/tuned_r.cuh" &&
    grep -q 'return launch_sum_RA_V_SV<512>(in, m, n, ld, out, temp, temp_bytes, k.items, k.per_row, stream);' "$work/tuned_r.cuh" || fail "a tuned RA cell"
  "$gen" --cols --embed="$work/shapes.db.json" --no-check --type=f32 -o "$work/tuned_c.cuh" codelets/sum.tgm &&
    grep -q 'k.slot == 0 && tgm_cols_parts_fit(n, k.width, 1, k.parts)' "$work/tuned_c.cuh" || fail "the tuned column cells"
  "$gen" --cols --embed="$work/shapes.db.json" --no-check --type=i32 -o "$work/shaped_x.cuh" codelets/sum.tgm 2>"$work/err"
  [ $? -eq 1 ] && [ ! -e "$work/shaped_x.cuh" ] && grep -q "no tuned sum i32 cols for cuda" "$work/err" ||
    fail "--cols --embed=DB without the type's cells: $(head -1 "$work/err")"
  bad_cell() { # bad_cell SED PATTERN [cols]: the fixture edited, refused with PATTERN, nothing written
    sed "$1" "$work/shapes.db.json" >"$work/bad.db.json"
    "$gen" --${3:-rows} --embed="$work/bad.db.json" --no-check --type=f32 -o "$work/shaped_x.cuh" codelets/sum.tgm 2>"$work/err"
    [ $? -eq 1 ] && [ ! -e "$work/shaped_x.cuh" ] && grep -q -- "$2" "$work/err" ||
      fail "a bad cell ($2): $(head -1 "$work/err")"
  }
  bad_cell 's/"RB.V.SV"/"RB.V.XX"/' 'cell 1 (2^5 x 2^11) of the entry for NVIDIA H100 80GB HBM3 (f32 sum, one) chose no variant .RB.V.XX.'
  bad_cell 's/"RW.VA2S.SS", "block": 128/"RW.VA2S.SS", "block": 96/' 'block 96 is not one of RW.VA2S.SS'
  bad_cell 's/"items": 4, "per_row": 4/"items": 4, "per_row": 3/' 'per_row 3 is not one of RW.VA2S.SS'
  bad_cell 's/"RB.V.SV"/"CT.SV"/' "chose no variant 'CT.SV' for sum in cuda"
  bad_cell 's/"per_row": 16,/"per_row": 1,/' 'per_row (blocks a row) outside'
  bad_cell 's/"width": 64, "parts": 1/"width": 512, "parts": 1/' 'CT.SS b256: width and parts the launch rule refuses' cols
  bad_cell 's/"log2m": 5, "log2n": 11/"log2m": 1, "log2n": 17/' 'bad.db.json:4:5: error: entry 0 bucket 1 repeats a cell'
  # an even cell no shape finds (tgm_shape_cell is odd; was written, never used)
  bad_cell 's/"log2m": 5, "log2n": 11/"log2m": 4, "log2n": 11/' "cell 1 (2^4 x 2^11) .*: a cell's log2m and log2n are odd"

  sed 's/"RB.V.SV"/"RB.V.XX"/' "$work/shapes.db.json" >"$work/bad.db.json"
  "$gen" --rows --embed="$work/bad.db.json" --device="NVIDIA H200" --no-check --type=f32 -o "$work/shaped_x.cuh" codelets/sum.tgm 2>"$work/err"
  [ $? -eq 1 ] && grep -q "no tuned sum f32 rows for cuda in the database, device NVIDIA H200" "$work/err" || fail "--device narrows the cells"
  "$gen" --rows --embed --device=X -o "$work/shaped_x.cuh" codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "--rows --device without a database"
  "$gen" --cols --embed --variant=CT.SS -o "$work/shaped_x.cuh" codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "--cols with --variant"
  "$gen" --rows --reduce-api -o "$work/shaped_x.h" codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "--rows --reduce-api"
  # a codelet with an error: located, exit 1, nothing written
  sed 's/accum += in\[i\];/accum += in[i] +;/' codelets/sum.tgm >"$work/broken.tgm"
  ! cmp -s codelets/sum.tgm "$work/broken.tgm" || fail "the broken codelet differs"
  "$gen" --rows --embed --type=f32 -o "$work/shaped_b.cuh" "$work/broken.tgm" 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && [ ! -e "$work/shaped_b.cuh" ] && grep -q "broken.tgm:[0-9]*:[0-9]*: error:" "$work/err" ||
    fail "a broken codelet with --rows --embed ($rc): $(head -1 "$work/err")"
  "$gen" --cols --embed --type=f32 -o "$work/shaped_x.cuh" codelets/argmax.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && [ ! -e "$work/shaped_x.cuh" ] && grep -q "argmax.tgm:[0-9]*:[0-9]*: note: columns (CT.SS)" "$work/err" ||
    fail "argmax columns are refused, located ($rc)"

  "$gen" --embed --variant=DSL.VS.SV -o "$work/a.cuh" codelets/sum.tgm || fail "--variant"
  grep -q 'inline cudaError_t tgm_sum_i32(void \*d_temp, size_t \*temp_bytes, const int32_t \*d_in, int32_t \*d_out,' "$work/a.cuh" || fail "entry point"
  grep -q 'launch_sum_DSL_VS_SV<256, 1>' "$work/a.cuh" || fail "the variant's launcher"
  ! grep -q 'sum_DT_V_ST' "$work/a.cuh" || fail "only the chosen variant"
  grep -q '"DSL.VS.SV, untuned", nullptr' "$work/a.cuh" || fail "the untuned table"
  "$gen" --embed --hip --variant=DT.VS.SS --type=f32 -o "$work/a.hip.h" codelets/min.tgm || fail "--hip"
  grep -q 'inline hipError_t tgm_min_f32(' "$work/a.hip.h" || fail "HIP entry point"
  grep -q 'inline const char \*tgm_min_f32_table()' "$work/a.hip.h" || fail "HIP table query"
  # errors: exit 1 (input) or 2 (usage), one line, nothing written
  "$gen" --embed --variant=NO.SUCH.ID -o "$work/b.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "no variant 'NO.SUCH.ID'" "$work/err" && [ ! -e "$work/b.cuh" ] || fail "unknown variant ($rc)"
  "$gen" --embed --variant=DT.VR.SS --type=f32 -o "$work/b.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "left out.*no warp-reduce instruction" "$work/err" || fail "left-out variant ($rc)"
  "$gen" --embed --variant=DT.V.SS codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "--embed without -o"
  "$gen" --embed --variant=DT.V.SS --type=i32,f32 -o "$work/b.cuh" codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "two types"
  "$gen" --variant=DT.V.SS codelets/sum.tgm 2>/dev/null; [ $? -eq 2 ] || fail "--variant without --embed"

  # a database as tgm-tune writes it, for this version of sum.tgm
  nocheck=$("$gen" --help | grep -q -- --no-check && echo --no-check)
  "$gen" $nocheck -o "$work/m" codelets/sum.tgm || exit 1
  hash=$(sed -n 's/.*"source_hash": "\([0-9a-f]*\)".*/\1/p' "$work/m/sum_i32.json")
  entry() { # entry TYPE HASH BUCKETS [DEVICE [SMS]]
    cat <<JSON
{"key": {"device": "${4:-NVIDIA H100 80GB HBM3}", "cc": "9.0", "sm_count": ${5:-132},
 "driver": "13000", "compiler": "13.0", "type": "$1", "op": "sum", "mode": "stream", "source_hash": "$2",
 "deterministic": false, "hot_l2": false}, "results": [], "buckets": [$3]}
JSON
  }
  good='{"from_log2n": 10, "to_log2n": 15, "variant": "B1.VS.SV", "block": 512, "items": 1, "grid_cap_per_sm": 0},
        {"from_log2n": 16, "to_log2n": 22, "variant": "DSL.VR.SV", "block": 256, "items": 1, "grid_cap_per_sm": 4},
        {"from_log2n": 23, "to_log2n": 30, "variant": "DTA.VS.SV", "block": 256, "items": 16, "grid_cap_per_sm": 0}'
  db() { echo "{\"tgm_db\": ${3:-1}, \"entries\": [$(entry "$1" "$2" "$good")]}"; }
  db i32 "$hash" >"$work/db.json"
  "$gen" --embed="$work/db.json" -o "$work/t.cuh" codelets/sum.tgm || fail "--embed=DB"
  grep -q '{15, 0}, // 2^10..2^15: B1.VS.SV, block 512, items 1' "$work/t.cuh" || fail "first bucket"
  grep -q '{22, 1}, // 2^16..2^22: DSL.VR.SV, block 256, items 1, 4 blocks per SM' "$work/t.cuh" || fail "second bucket"
  grep -q '{30, 2}, // 2^23..2^30: DTA.VS.SV, block 256, items 16' "$work/t.cuh" || fail "last bucket"
  grep -q 'case 1: // DSL.VR.SV, block 256, items 1, 4 blocks per SM at most' "$work/t.cuh" || fail "the choice"
  grep -q 'launch_sum_DSL_VR_SV<256, 1>(in, n, out, temp, temp_bytes, 1, sms \* 4, stream)' "$work/t.cuh" || fail "its launch"
  grep -q 'TGM_TABLES = 1, TGM_OTHER = 0' "$work/t.cuh" || fail "one table"
  ! grep -q 'cudaGetDeviceProperties' "$work/t.cuh" || fail "one table needs no device name"
  echo '{"tgm_db": 1, "entries": [' >"$work/bad.json"
  "$gen" --embed="$work/bad.json" -o "$work/c.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "bad.json:[0-9]*:[0-9]*: error: corrupt tuning database" "$work/err" && [ ! -e "$work/c.cuh" ] || fail "corrupt database ($rc)"
  db f64 "$hash" >"$work/foreign.json"
  "$gen" --embed="$work/foreign.json" -o "$work/c.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "no tuned sum i32 for cuda in the database" "$work/err" || fail "foreign database ($rc)"
  db i32 0123456789abcdef >"$work/stale.json"
  "$gen" --embed="$work/stale.json" -o "$work/c.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "tuned for another source" "$work/err" || fail "stale database ($rc)"

  # refused buckets: as strictly as tgm-tune reads the database,
  # and against the manifest; the error names the file, the entry and the
  # bucket; exit 1, nothing written
  refused() { # refused NAME 'BUCKETS' 'EXPECTED' [VERSION]
    echo "{\"tgm_db\": ${4:-1}, \"entries\": [$(entry i32 "$hash" "$2")]}" >"$work/$1.json"
    "$gen" --embed="$work/$1.json" -o "$work/$1.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
    [ $rc -eq 1 ] && grep -q -- "$3" "$work/err" && [ "$(wc -l <"$work/err")" -le 2 ] && [ ! -e "$work/$1.cuh" ] ||
      fail "$1 ($rc): $(head -1 "$work/err")"
  }
  b() { echo "{\"from_log2n\": $1, \"to_log2n\": $2, \"variant\": \"$3\", \"block\": $4, \"items\": $5, \"grid_cap_per_sm\": $6}"; }
  refused inverted "$(b 12 10 B1.VS.SV 256 1 0)" "inverted.json:[0-9]*:[0-9]*: error: entry 0 bucket 0 has no size range (from_log2n <= to_log2n"
  refused overlap "$(b 0 12 B1.VS.SV 256 1 0), $(b 12 20 DT.VS.SV 256 4 0)" "overlap.json:[0-9]*:[0-9]*: error: entry 0 bucket 1 overlaps the one before or is out of order"
  refused order "$(b 14 20 DT.VS.SV 256 4 0), $(b 0 12 B1.VS.SV 256 1 0)" "entry 0 bucket 1 overlaps the one before or is out of order"
  refused version "$(b 0 12 B1.VS.SV 256 1 0)" "version.json: error: tuning database version 999, this tgm reads 1" 999
  refused items "$(b 0 12 B1.VS.SV 256 1 0), $(b 13 20 DT.VS.SV 256 3 0)" \
    "items.json: error: bucket 1 (2^13..2^20) of the entry for NVIDIA H100 80GB HBM3 (i32 sum, stream): items 3 is not one of DT.VS.SV's (1, 2, 4, 8, 16)"
  refused block "$(b 0 12 B1.VS.SV 96 1 0)" "bucket 0 (2^0..2^12) of the entry for NVIDIA H100 80GB HBM3 (i32 sum, stream): block 96 is not one of B1.VS.SV's (128, 256, 512, 1024)"
  refused cap "$(b 0 20 DSL.VS.SV 256 1 64)" "grid_cap_per_sm 64 is not one of DSL.VS.SV's (1, 2, 4, 8, 16, 32)"
  refused nocap "$(b 0 20 DSL.VS.SV 256 1 0)" "grid_cap_per_sm 0 is not one of DSL.VS.SV's"
  refused capless "$(b 0 20 DTL.VS.SV 256 4 2)" "DTL.VS.SV has no grid cap, but grid_cap_per_sm is 2"
  refused variant "$(b 0 20 DTL.XX.SV 256 4 0)" "bucket 0 (2^0..2^20) of the entry for NVIDIA H100 80GB HBM3 (i32 sum, stream) chose no variant 'DTL.XX.SV' for sum in cuda"
  # a left-out variant: VR has no warp-reduce instruction for f32
  echo "{\"tgm_db\": 1, \"entries\": [$(entry f32 "$hash" "$(b 0 20 DT.VR.SS 256 4 0)")]}" >"$work/vr.json"
  "$gen" --embed="$work/vr.json" --type=f32 -o "$work/vr.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "bucket 0 (2^0..2^20) of the entry for NVIDIA H100 80GB HBM3 (f32 sum, stream) chose variant 'DT.VR.SS' is left out for cuda f32" "$work/err" ||
    fail "left-out variant in a database ($rc): $(head -1 "$work/err")"
  # a bad entry for another type still makes the file corrupt, as for tgm-tune
  echo "{\"tgm_db\": 1, \"entries\": [$(entry i32 "$hash" "$good"), $(entry f64 "$hash" "$(b 9 3 B1.V.SS 256 1 0)")]}" >"$work/other.json"
  "$gen" --embed="$work/other.json" -o "$work/other.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "entry 1 bucket 0 has no size range" "$work/err" || fail "a bad entry of another type ($rc)"

  # several GPUs: one table each, a portable one, shared kernels once
  two="$(entry i32 "$hash" "$good"), $(entry i32 "$hash" "$(b 0 15 B1.VS.SV 512 1 0), $(b 16 30 DTA.VS.SV 256 16 0)" "NVIDIA H200")"
  echo "{\"tgm_db\": 1, \"entries\": [$two]}" >"$work/two.json"
  "$gen" --embed="$work/two.json" -o "$work/two.cuh" codelets/sum.tgm || fail "two GPUs"
  grep -q '{"NVIDIA H100 80GB HBM3, cc 9.0, 132 SMs", "NVIDIA H100 80GB HBM3", 9, 0, 132, 3, tgm_buckets_0},' "$work/two.cuh" || fail "the H100's table"
  grep -q '{"NVIDIA H200, cc 9.0, 132 SMs", "NVIDIA H200", 9, 0, 132, 2, tgm_buckets_1},' "$work/two.cuh" || fail "the H200's table"
  grep -q '{"portable", nullptr, 0, 0, 0, 2, tgm_buckets_2},' "$work/two.cuh" || fail "the portable table"
  [ "$(grep -c 'void __launch_bounds__(BLOCK) sum_DTA_VS_SV(' "$work/two.cuh")" = 1 ] || fail "a kernel of two tables, once"
  [ "$(grep -c '^  case [0-9]*:' "$work/two.cuh")" = 6 ] || fail "three distinct choices, each once in both switches"
  # the portable table: sizes both GPUs chose alike stay; VR (sm_80) is
  # never portable: DTA.VS.SV (the H200's) for 2^16..2^22, where the H100
  # chose DSL.VR.SV
  sed -n '/^constexpr tgm_bucket tgm_buckets_2/,/^};/p' "$work/two.cuh" >"$work/portable"
  grep -q '{15, 0}, // 2^0..2^15: B1.VS.SV, block 512, items 1' "$work/portable" &&
    grep -q '{30, 2}, // 2^16..2^30: DTA.VS.SV, block 256, items 16' "$work/portable" ||
    fail "the portable choice: $(cat "$work/portable")"
  grep -q 'cudaGetDeviceProperties(&props, dev)' "$work/two.cuh" || fail "the name is read"
  "$gen" --embed="$work/two.json" --device="NVIDIA H200" -o "$work/h200.cuh" codelets/sum.tgm || fail "--device"
  grep -q 'TGM_TABLES = 1, TGM_OTHER = 0' "$work/h200.cuh" && grep -q '"NVIDIA H200, cc 9.0, 132 SMs"' "$work/h200.cuh" ||
    fail "--device selects one table"
  # the same GPU twice (two modes) needs --mode
  echo "{\"tgm_db\": 1, \"entries\": [$two, $(entry i32 "$hash" "$good" | sed 's/"stream"/"graph"/')]}" >"$work/modes.json"
  "$gen" --embed="$work/modes.json" -o "$work/modes.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "sum i32 is tuned twice for NVIDIA H100 80GB HBM3, cc 9.0, 132 SMs (mode stream, driver 13000, compiler 13.0; mode graph, driver 13000, compiler 13.0); choose one with --mode" "$work/err" ||
    fail "two modes of one GPU ($rc): $(head -1 "$work/err")"
  "$gen" --embed="$work/modes.json" --mode=graph -o "$work/modes.cuh" codelets/sum.tgm || fail "--mode picks"
  # two tunings --mode cannot tell apart (another driver, a retune): said so
  # (the message sent to --mode, which could not help; found by a probe)
  echo "{\"tgm_db\": 1, \"entries\": [$two, $(entry i32 "$hash" "$good" | sed 's/"13000"/"13010"/')]}" >"$work/drivers.json"
  "$gen" --embed="$work/drivers.json" -o "$work/drv.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "driver 13000.*driver 13010.*--mode and --device cannot tell them apart" "$work/err" ||
    fail "two drivers of one GPU ($rc): $(head -1 "$work/err")"
  # a key's cc only as MAJOR.MINOR digits (4294967305.0 was read as 9.0), its
  # text members text (a "mode": {} was written "mode ,"); --embed= empty
  for bad in '"4294967305.0"' '" 9. 0"' '"+9.-0"'; do
    db i32 "$hash" | sed "s/\"cc\": \"9.0\"/\"cc\": $bad/" >"$work/cc.json"
    "$gen" --embed="$work/cc.json" -o "$work/cc.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
    [ $rc -eq 1 ] && grep -q 'has no GPU ("device", "cc": "MAJOR.MINOR"' "$work/err" && [ ! -e "$work/cc.cuh" ] ||
      fail "cc $bad ($rc)"
  done
  db i32 "$hash" | sed 's/"mode": "stream"/"mode": {}/' >"$work/mode.json"
  "$gen" --embed="$work/mode.json" -o "$work/mode.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "its key's \"mode\" is not text" "$work/err" || fail "a mode that is no text ($rc)"
  # a tuning that did not finish (results, no buckets) is said to be one
  entry i32 "$hash" "" | sed 's/"results": \[\]/"results": [{"log2n": 10, "variant": "B1.VS.SV", "block": 1024, "items": 1, "grid_cap_per_sm": 0, "us": 3.0, "us_p25": 2.9, "us_p75": 3.1, "gbps": 1.0, "cub_us": 3.2}]/' >"$work/unf.entry"
  echo "{\"tgm_db\": 1, \"entries\": [$(cat "$work/unf.entry")]}" >"$work/unf.json"
  "$gen" --embed="$work/unf.json" -o "$work/unf.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "1 tuning in it did not finish (results, no buckets): run tgm-tune again" "$work/err" ||
    fail "an unfinished tuning ($rc): $(head -1 "$work/err")"
  "$gen" --embed= -o "$work/e.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 2 ] && grep -q -- "--embed= needs a database" "$work/err" || fail "--embed= ($rc)"
  # a tuning of both modes (tgm-tune's default) is taken over single modes
  # without --mode, in either order; --mode=stream still picks that one
  both=$(entry i32 "$hash" "$(b 0 30 DT.VS.ST 128 2 0)" | sed 's/"stream"/"both"/')
  graph=$(entry i32 "$hash" "$good" | sed 's/"stream"/"graph"/')
  for order in "$two, $both, $graph" "$both, $two"; do
    echo "{\"tgm_db\": 1, \"entries\": [$order]}" >"$work/both.json"
    "$gen" --embed="$work/both.json" -o "$work/both.cuh" codelets/sum.tgm 2>"$work/err" &&
      grep -q '2^0..2^30: DT.VS.ST, block 128, items 2' "$work/both.cuh" &&
      grep -q 'mode both, driver' "$work/both.cuh" || fail "both modes preferred: $(head -1 "$work/err")"
  done
  "$gen" --embed="$work/both.json" --mode=stream -o "$work/both.cuh" codelets/sum.tgm &&
    grep -q '2^10..2^15: B1.VS.SV' "$work/both.cuh" || fail "--mode=stream over both"
  # device names are data: quotes, backslashes and newlines stay in the string
  weird='A \"quoted\" \\ GPU\n#error x'
  echo "{\"tgm_db\": 1, \"entries\": [$(entry i32 "$hash" "$good" "$weird"), $(entry i32 "$hash" "$good" "NVIDIA H200")]}" >"$work/weird.json"
  "$gen" --embed="$work/weird.json" -o "$work/weird.cuh" codelets/sum.tgm || fail "a strange device name"
  ! grep -q '^#error' "$work/weird.cuh" && grep -qF '"A \042quoted\042 \134 GPU\012#error x"' "$work/weird.cuh" ||
    fail "the device name as a C string: $(grep -m1 'quoted' "$work/weird.cuh")"
  # tuned with hiprtc: for --hip only
  echo "{\"tgm_db\": 1, \"entries\": [$(entry i32 "$hash" "$(b 0 30 DSL.VS.SV 256 1 4)")]}" |
    sed 's/"compiler": "13.0"/"compiler": "hiprtc 5.2"/' >"$work/amd.json"
  "$gen" --embed="$work/amd.json" -o "$work/amd.cuh" codelets/sum.tgm 2>"$work/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "the hiprtc tunings are for --hip" "$work/err" || fail "hiprtc tunings in a CUDA header ($rc)"
  "$gen" --embed="$work/amd.json" --hip -o "$work/amd.hip.h" codelets/sum.tgm || fail "hiprtc tunings in a HIP header"

  # the database of several GPUs the GPU test uses
  several "$work/cuda" cuda || fail "headers of several GPUs (cuda)"
  several "$work/hip" hip || fail "headers of several GPUs (hip)"
  grep -q '"NVIDIA H200, cc 9.0, 132 SMs", "NVIDIA H200"' "$work/cuda/sum_i32.h" || fail "the H200 in sum_i32.h"
  grep -q '"AMD Instinct MI250X, cc 9.0, 110 SMs"' "$work/hip/max_f32.h" || fail "the MI250X in max_f32.h"
elif [ "$what" = fresh ]; then
  several "$work/cuda" cuda || exit 1
  shaped "$work/cuda" || exit 1
  [ "${TGM_BLESS:-}" = 1 ] && mkdir -p tests/embed/headers && cp "$work"/cuda/*.h tests/embed/headers/
  diff -r -u tests/embed/headers "$work/cuda" >"$work/diff" ||
    { head -40 "$work/diff"; fail "tests/embed/headers is stale (TGM_BLESS=1 ctest -R embed.fresh, then review the diff)"; }
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
  several "$work/several" "$what" || fail "headers of several GPUs"
  if [ "$what" = hip ]; then shaped "$work/several" --hip; else shaped "$work/several"; fi || fail "row and column headers"
  if [ "$what" = cuda ]; then # the i64 calls over int64_t buffers (long here), nvcc -Werror
    "$gen" --embed --variant=DSL.VS.SV --no-check --type=i64 -o "$work/int64_sum_i64.h" codelets/sum.tgm &&
      "$gen" --rows --embed --no-check --type=i64 -o "$work/int64_sum_rows_i64.h" codelets/sum.tgm &&
      "$cc" -std=c++17 -arch=sm_90 -Werror all-warnings -I"$work" -c -x cu tests/embed/int64.cpp \
        -o "$work/int64.o" || fail "nvcc sm_90, the i64 calls over int64_t"
  fi
  for dir in "$work" "$work/several"; do
    if [ "$what" = cuda ]; then
      "$cc" -std=c++17 -arch=sm_90 -Werror all-warnings -DTGM_STREAM=cudaStream_t -I"$dir" -c -x cu \
        tests/embed/all.cu -o "$work/all.o" || fail "nvcc sm_90 ($dir)"
      [ "$dir" = "$work" ] || "$cc" -std=c++17 -arch=sm_90 -Werror all-warnings -DTGM_STREAM=cudaStream_t -I"$dir" -c -x cu \
        tests/embed/all_rows.cu -o "$work/all_rows.o" || fail "nvcc sm_90, rows and columns"
    else
      "$cc" --offload-arch=gfx90a -std=c++17 -Werror -DTGM_STREAM=hipStream_t -include hip/hip_runtime.h \
        -I"$dir" -c -x hip tests/embed/all.cu -o "$work/all.o" || fail "hipcc gfx90a ($dir)"
      [ "$dir" = "$work" ] || "$cc" --offload-arch=gfx90a -std=c++17 -Werror -DTGM_STREAM=hipStream_t -include hip/hip_runtime.h \
        -I"$dir" -c -x hip tests/embed/all_rows.cu -o "$work/all_rows.o" || fail "hipcc gfx90a, rows and columns"
    fi
  done
fi
[ $fails -eq 0 ] && echo "ok embed $what"
exit $((fails > 0))
