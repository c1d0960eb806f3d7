#!/usr/bin/env bash
# The embedded row and column calls with and without tgm-tune's cells, in
# one go on the GPU at hand: tests/embed/gpu_rows.cu built twice, against
# the committed headers (the rule's pick) and against the same headers with
# sum f32/i32 rows and columns made with --embed=DB (HEADERS, a folder made
# here: tgm-gen --rows/--cols --embed=DB ...), each checked against a host
# reference and CUB, then timed over the sweep (m n = 2^10..2^28, n =
# 2^1, 2^3, ...: the middles of the tuned cells) in the three timings.
#   bash bench/rows/tuned_ab.sh HEADERS OUTDIR
# writes OUTDIR/{device.txt, rule.csv, tuned.csv, log.txt}; then, where the
# results land, python3 bench/rows/tuned_ab.py OUTDIR.
set -uo pipefail
cd "$(dirname "$0")/../.."
tuned=${1:?usage: bench/rows/tuned_ab.sh HEADERS OUTDIR} out=${2:?usage: bench/rows/tuned_ab.sh HEADERS OUTDIR}
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/device.txt" 2>&1
mkdir -p "$bin/tuned" && cp tests/embed/headers/*.h "$bin/tuned/" && cp "$tuned"/*.h "$bin/tuned/"
arch=${TGM_GPU_ARCH:-sm_90}
nvcc -std=c++17 -O3 -arch="$arch" -I tests/embed/headers tests/embed/gpu_rows.cu -o "$bin/rule" &
nvcc -std=c++17 -O3 -arch="$arch" -I "$bin/tuned" tests/embed/gpu_rows.cu -o "$bin/tuned_rows" &
wait
status=0
# one after the other (a drift of the GPU between them shows in the cells
# where both run the same setting: the rule kept)
"$bin/rule" --bench "$out/rule.csv" --sweep >"$out/log.txt" 2>&1 || status=1
"$bin/tuned_rows" --bench "$out/tuned.csv" --sweep >>"$out/log.txt" 2>&1 || status=1
grep -E "failure|ok$|FAIL" "$out/log.txt" | head
exit $status
