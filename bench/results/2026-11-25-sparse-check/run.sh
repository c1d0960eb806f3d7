#!/usr/bin/env bash
# device run: GPU verification with sparse data, tgm_reduce first-use checks, a short tune
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for m in .gpu/gen/{bit_or,bit_and,bit_xor,any,sum,max,min,prod}_*.json; do
  s=$(date +%s)
  .gpu/tgm-tune "$m" --verify-only --verify-sizes 0,1,31,33,4097,65537,1048579 --quiet >/tmp/v.log 2>&1
  echo "$(basename $m): exit $? ($(( $(date +%s) - s )) s)"; tail -2 /tmp/v.log
done
echo "== buggy_or (CPU check skipped): the GPU verification must refuse the broken tree"
.gpu/tgm-tune .gpu/bad/bor_i32.json --verify-only --verify-sizes 0,1,31,33,4097 >$OUT/bor.log 2>&1; echo "exit $?"
grep -c "sparse data" $OUT/bor.log; grep -m3 "sparse data" $OUT/bor.log; tail -3 $OUT/bor.log
echo "== tgm_reduce"
.gpu/test_reduce_gpu generated bench/results/2026-11-22-h100/tgm-tune.db.json 2>&1 | tail -4
.gpu/test_reduce_gpu_spectra .gpu/gen 2>&1 | tail -4
echo "== a short tune: the manifest's op is the database's"
.gpu/tgm-tune .gpu/gen/sum_i32.json --sizes 2^10..2^14 --db $OUT/db.json --quiet >/dev/null 2>&1; echo "tune exit $?"
python3 -c "import json;d=json.load(open('$OUT/db.json'));print([e['key']['op'] for e in d['entries']], len(d['entries'][0]['results']))"
