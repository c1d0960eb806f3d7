#!/usr/bin/env bash
# device call 5: the final rule (RW to n < 1536 on m >= 4 sms rows; a block of 128 a row, items 4,
# for n < 4096): bench/rows/embed.sh (correctness, the nine shapes, the rule's boundary shapes
# for every op, the sweep, memcheck and racecheck)
set -u
s0=$(date +%s)
bash bench/rows/embed.sh $OUT/h100; echo "embed rc=$? ($(( $(date +%s) - s0 )) s)"
