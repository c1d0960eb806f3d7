#!/bin/bash
# The session's final kernels on the GPU (21e2a61 + mixed.cpp for nvcc): a codelet's max/min in the
# common type of their arguments (tgm_max_of<X>), a kernel per path of items with the rows' launch
# bounds, the probe9 fixes. Binaries built on the dev machine (nvcc 13.0, sm_90): gpu_embed over
# tests/embed/headers (d1fix) and over the H200-tuned 1-D headers of
# ../2026-11-29-peel/tune/db_peel.json (d1), gpu_rows (rows), tests/embed/ftoi.cpp (ftoi) and
# tests/embed/mixed.cpp (mixed: the sums of std::max<int> computed on the host, an oracle outside
# tgm); tgm-tune --verify-only of generated/ max/min and of .gpu/m (mixed.tgm 1-D and rows, probe9's
# fmaxf over f64); test_reduce_gpu_spectra over .gpu/spectra (absmax: tgm_max_of).
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
cd .gpu && tar xzf in.tgz && cd ..  # bin/, spectra/, m/
B=.gpu/bin R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
step() { echo "$1 exit $2 ($(( $(date +%s) - s0 )) s)" | tee -a $R/summary.txt; }
timeout 60 $B/mixed > $R/mixed.txt 2>&1; step "mixed: $(tail -1 $R/mixed.txt)" $?
timeout 60 $B/ftoi > $R/ftoi.txt 2>&1; step "ftoi: $(tail -1 $R/ftoi.txt)" $?
timeout 120 $B/d1fix > $R/d1fix.txt 2>&1; step "d1fix: $(tail -1 $R/d1fix.txt)" $?
timeout 120 $B/d1 --quick > $R/d1.txt 2>&1; step "d1: $(tail -1 $R/d1.txt)" $?
timeout 150 $B/rows > $R/rows.txt 2>&1; step "rows: $(tail -1 $R/rows.txt)" $?
for m in generated/max_f32.json generated/min_i32.json generated/rows/max_f32_rows.json .gpu/m/relu_sum_i32.json .gpu/m/relu_sum_i32_rows.json .gpu/m/fm3_f64.json; do
  timeout 150 $B/tgm-tune $m --verify-only --cache $PWD/.gpu/cache > $R/verify_$(basename $m .json).txt 2>&1
  step "verify $(basename $m .json): $(tail -1 $R/verify_$(basename $m .json).txt)" $?
done
timeout 150 $B/test_reduce_gpu_spectra .gpu/spectra > $R/reduce_spectra.txt 2>&1; step "test_reduce_gpu_spectra: $(tail -1 $R/reduce_spectra.txt)" $?
cd $OUT && tar czf r.tgz r && rm -rf r
