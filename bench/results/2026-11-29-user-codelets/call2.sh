#!/usr/bin/env bash
# count_if after the shuffle change (a430577: the lanes' counts shuffled as unsigned, not T):
# every variant and knob setting verified on the GPU at the gpu label's sizes, i32 and f32.
# .gpu/u: tgm-gen --no-check --type=i32,f32 -o .gpu/u codelets/count_if.tgm (.hip removed).
set -u
export PATH=$PATH:/usr/local/cuda/bin
sizes=0,1,2,31,32,33,255,256,257,1000,4097,65537,1048579,4194309
for m in .gpu/u/count_if_*.json; do
  .gpu/tgm-tune $m --verify-only --verify-sizes $sizes --cache /tmp/c --param threshold=2 > /tmp/v.log 2>&1
  echo "verify $(basename $m): exit $?"; tail -n 2 /tmp/v.log
done
