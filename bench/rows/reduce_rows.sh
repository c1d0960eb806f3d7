#!/usr/bin/env bash
# bench/rows/reduce_rows.cu built here (nvcc; libtgm_reduce from the static
# build .gpu/build-reduce: cmake -S runtime/reduce -B .gpu/build-reduce
# -DTGM_JANSSON_STATIC=ON -DCMAKE_BUILD_TYPE=Release) into .gpu/reduce_rows,
# for the GPU machine, which has no jansson:
#   bash bench/rows/reduce_rows.sh            # here: build
#   .gpu/reduce_rows generated OUT.csv        # there: run (GENERATED: the data folder)
set -euo pipefail
cd "$(dirname "$0")/../.."
b=.gpu/build-reduce
arch=${TGM_GPU_ARCH:-sm_90}
nvcc -std=c++17 -O3 -arch="$arch" -I tests/embed/headers -I runtime/reduce/include -I runtime/include \
  bench/rows/reduce_rows.cu "$b/libtgm_reduce.a" "$b/runtime/libtgm_tune.a" "$b/runtime/libtgm.a" \
  /usr/lib/x86_64-linux-gnu/libjansson.a -ldl -lm -o .gpu/reduce_rows
echo "built .gpu/reduce_rows"
