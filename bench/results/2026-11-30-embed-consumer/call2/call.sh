#!/bin/bash
# device call (2026-11-30, third session): the VR fallback on the GPU. Headers of one variant each:
# sum/max/min i32 DTL.VR.SV (the warp-reduce instruction), f32 DTL.VS.SV; gpu_embed built for
# compute_75 only (PTX JIT on the H200: shuffles) and for sm_90 (redux.sync), both --quick.
export PATH=/usr/local/cuda/bin:$PATH
s0=$(date +%s)
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $R/device.txt
B=.gpu/b
echo "vr75 PTX: $(cuobjdump -ptx $B/vr75 | grep -c 'shfl.sync.bfly') shfl.sync.bfly, $(cuobjdump -ptx $B/vr75 | grep -c 'redux.sync') redux.sync, $(cuobjdump -ptx $B/vr75 | grep -c 'trap;') trap"
echo "vr90 SASS: $(cuobjdump -sass $B/vr90 | grep -c 'REDUX') REDUX"
for b in vr75 vr90; do
  timeout 150 $B/$b --quick > $R/$b.log 2>&1; echo "$b exit $? ($(( $(date +%s) - s0 )) s): $(tail -1 $R/$b.log)"
done
grep -h "table" $R/vr75.log | head -3
tar czf $OUT/r.tgz -C $OUT r && rm -rf $R
