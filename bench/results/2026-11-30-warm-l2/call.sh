#!/bin/bash
# device call (2026-11-30, third session): the manifests' sources_hash on the GPU (tgm-tune
# --verify-only reads and checks its sources; test_reduce_gpu_spectra refuses an edited source
# and runs the rest), then the 1-D embedded call from the H200 tune (db_peel.json) in four
# timings: (a) stream, (b) one call, (c) graph (cold L2), (d) warm: back-to-back on one input.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
tar xzf .gpu/in.tgz -C .gpu
mkdir -p "$OUT/r" && R=$OUT/r
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
for m in .gpu/m/*.json; do
  timeout 120 .gpu/tgm-tune $m --verify-only --cache $PWD/.gpu/cache > $R/verify_$(basename $m .json).txt 2>&1
  echo "verify $(basename $m) exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 $R/verify_$(basename $m .json).txt)"
done
timeout 200 .gpu/test_reduce_gpu_spectra .gpu/spectra > $R/reduce_spectra.txt 2>&1; echo "test_reduce_gpu_spectra exit $? ($(( $(date +%s) - s0 )) s)"
timeout 200 .gpu/test_reduce_gpu generated bench/results/2026-11-22-h100/tgm-tune.db.json > $R/reduce_gpu.txt 2>&1; echo "test_reduce_gpu exit $? ($(( $(date +%s) - s0 )) s)"
for r in 1 2; do
  timeout 150 .gpu/d1 --quick --bench $R/d1_warm$r.md > $R/d1_warm$r.log 2>&1; echo "d1 run $r exit $? ($(( $(date +%s) - s0 )) s)"
done
grep -h "geomean" $R/d1_warm*.md
cd $OUT && tar czf r.tgz r && rm -rf r
