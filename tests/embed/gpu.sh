#!/usr/bin/env bash
# The embedded headers on the GPU, from the repository root, on a machine
# with nvcc (CUDA 12 or 13) and a GPU, no libclang needed: builds
# tests/embed/gpu_embed.cu against the committed headers (tests/embed/headers,
# made by tgm-gen from the H100's database and a synthetic H200, see
# tests/embed/gpus_db.sh) and runs it; arguments go to gpu_embed
# (--quick, --bench FILE.md); $TGM_EMBED_HEADERS: another folder of the six
# headers (e.g. made from real tunings of several GPUs). Exit status:
# gpu_embed's (77: no GPU).
#   bash tests/embed/gpu.sh [--quick] [--bench FILE.md]
# With --rows first: tests/embed/gpu_rows.cu instead, the row and column
# calls (headers NAME_rows_TYPE.h, NAME_cols_TYPE.h):
#   bash tests/embed/gpu.sh --rows [--quick] [--bench FILE.csv [--sweep]]
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
arch=${TGM_GPU_ARCH:-sm_90}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
test=gpu_embed
if [ "${1:-}" = --rows ]; then
  test=gpu_rows
  shift
fi
echo "building $test ($nvcc, $arch)"
"$nvcc" -std=c++17 -O3 -arch="$arch" -I "${TGM_EMBED_HEADERS:-tests/embed/headers}" tests/embed/$test.cu \
  -o "$bin/$test"
set +e
time "$bin/$test" "$@"
