#!/usr/bin/env bash
# Builds and runs the row benchmark (rows_bench.cu) on the GPU at hand:
# generated/rows' sum, max and min over f32 and i32 against CUB's
# DeviceSegmentedReduce, the shapes of issue 12.
#   bench/rows/run.sh OUTDIR [--quick]    (writes OUTDIR/rows.md, rows.csv)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench/rows/run.sh OUTDIR [--quick]}
shift
mkdir -p "$out"
arch=${TGM_ARCH:-sm_90}
build=$(mktemp -d)
flags=(-O3 -std=c++17 -arch="$arch" -Igenerated/rows -Igenerated/cols -Ibench/rows)
pids=()
for op in sum max min; do
  for t in f32 i32; do
    extra=()
    [ "$t" = i32 ] && extra=(-DHAS_VR)
    nvcc "${flags[@]}" -DOP="$op" -DTYPE="$t" "${extra[@]}" -c bench/rows/variants.cu -o "$build/${op}_$t.o" &
    pids+=($!)
  done
done
for p in "${pids[@]}"; do wait "$p"; done
nvcc "${flags[@]}" bench/rows/rows_bench.cu "$build"/*.o -o "$build/rows_bench"
cp "$build/rows_bench" /tmp/rows_bench # for compute-sanitizer after the run
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > "$out/device.txt" || true
"$build/rows_bench" --out "$out/rows.md" --csv "$out/rows.csv" "$@"
"$build/rows_bench" --cols --out "$out/cols.md" --csv "$out/cols.csv" "$@"
