#!/usr/bin/env bash
# On the GPU machine: the final tgm-tune binary (.gpu/tgm-tune) once more —
# a sum/i32 stream tune with its report, the progress bar on a terminal
# (through script(1)), and the exit status of --backend hip on an NVIDIA box.
set -u
export TGM_CACHE_DIR=/tmp/tgm-cache-smoke
R=/tmp/results-smoke && mkdir -p $R
T=.gpu/tgm-tune
$T .gpu/gen/max_f32.json --db $R/smoke.db.json --report $R 2>&1 | grep -vE "^tgm-tune: [0-9]+/21 "
echo "exit $?"
if command -v script >/dev/null; then
  script -qfec "$T .gpu/gen/sum_i32.json --sizes 2^10..2^16 --db $R/tty.db.json" /dev/null > $R/tty.txt 2>&1
  echo "on a terminal: exit $?; last progress frame:"; tr '\r' '\n' < $R/tty.txt | grep '^\[' | tail -1
fi
$T .gpu/gen/sum_i32.json --backend hip --db $R/hip.db.json; echo "--backend hip: exit $?"
tar czf $OUT/results-smoke.tar.gz -C /tmp results-smoke
