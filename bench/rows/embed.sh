#!/usr/bin/env bash
# The embedded row and column calls on the GPU at hand, in one go (about
# 6 minutes on an H100, inside the device tool's 10-minute limit): the
# correctness run and the benchmark of tests/embed/gpu_rows.cu (the
# committed headers in tests/embed/headers), torch's peers, memcheck and
# racecheck on the quick set: six files, within the device tool's eight.
#   bash bench/rows/embed.sh OUTDIR
# writes OUTDIR/{device.txt, log.txt, rows_embed.csv, torch.csv,
# memcheck.txt, racecheck.txt}; then, where the results land,
#   python3 bench/rows/heatmap.py OUTDIR/rows_embed.csv OUTDIR/torch.csv OUTDIR
# adds report.md and the heat maps. Exit 1 when a call computed a wrong
# result or a sanitizer found an error.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: bench/rows/embed.sh OUTDIR}
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/device.txt" 2>&1
nvcc --version | tail -2 >>"$out/device.txt"
nvcc -std=c++17 -O3 -arch="${TGM_GPU_ARCH:-sm_90}" -I tests/embed/headers tests/embed/gpu_rows.cu \
  -o "$bin/gpu_rows" || exit 1
status=0
"$bin/gpu_rows" --bench "$out/rows_embed.csv" --sweep >"$out/log.txt" 2>&1 || status=1
python3 bench/rows/torch_rows.py --csv "$out/torch.csv" --sweep >>"$out/log.txt" 2>&1 ||
  echo "torch: failed" >>"$out/log.txt"
sanitizer=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
# TGM_SANITIZERS=0 skips them (a second GPU of a run that had them)
[ "${TGM_SANITIZERS:-1}" = 0 ] && tools= || tools="memcheck racecheck"
for tool in $tools; do
  timeout 150 "$sanitizer" --tool $tool --error-exitcode 9 "$bin/gpu_rows" --quick >"$out/$tool.txt" 2>&1 ||
    status=1
done
tail -n 3 "$out"/*.txt
exit $status
