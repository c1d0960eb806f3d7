#!/usr/bin/env bash
# The device call of h200-sweep/: bench/rows/embed.sh on the committed headers of 7c95a5d (the column
# parts of ../2026-11-29-cols-parts, the rows of 8/16/32 of ../2026-11-29-rows-h200): correctness,
# the nine shapes, the rule's boundary shapes for every op, the sweep, memcheck and racecheck.
set -u
s0=$(date +%s)
bash bench/rows/embed.sh $OUT/h200; echo "embed rc=$? ($(( $(date +%s) - s0 )) s)"
