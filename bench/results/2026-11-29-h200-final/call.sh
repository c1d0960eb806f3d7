#!/usr/bin/env bash
# The device call of h200-final/: bench/rows/embed.sh on the committed headers of 0b83812 (the row
# kernels' bound of ../2026-11-29-rows-bounds, the few long rows of ../2026-11-29-rows-spread):
# correctness, the nine shapes, the rule's boundary shapes for every op, the sweep, memcheck and
# racecheck; the results in one tar (the device tool returns eight files at most)
set -u
s0=$(date +%s)
bash bench/rows/embed.sh $OUT/h200; echo "embed rc=$? ($(( $(date +%s) - s0 )) s)"
tar czf $OUT/h200.tgz -C $OUT h200 && rm -rf $OUT/h200
