#!/usr/bin/env bash
# tgm-gen --list: at least 85 variants for sum over i32, ids distinct, each
# line the id then its properties.
set -u
gen=$1 root=$2
cd "$root" || exit 1
out=$("$gen" --list codelets/sum.tgm) || { echo "FAIL: --list failed"; exit 1; }
n=$(printf '%s\n' "$out" | wc -l)
distinct=$(printf '%s\n' "$out" | awk '{print $1}' | sort -u | wc -l)
echo "sum i32: $n variants, $distinct distinct ids"
[ "$n" -ge 85 ] || { echo "FAIL: fewer than 85 variants"; exit 1; }
[ "$n" -eq "$distinct" ] || { echo "FAIL: duplicate ids"; exit 1; }
bad=$(printf '%s\n' "$out" | grep -cvE '^[A-Z0-9]+\.[A-Z0-9]+\.S[TSV] +launches=[12] init=(yes|no) deterministic=(yes|no) ')
[ "$bad" -eq 0 ] || { echo "FAIL: $bad malformed lines"; exit 1; }
for t in u32 i64 f32 f64; do
  m=$("$gen" --list --type=$t codelets/sum.tgm | wc -l)
  echo "sum $t: $m variants"
  [ "$m" -ge 85 ] || { echo "FAIL: fewer than 85 variants for $t"; exit 1; }
done
# floating-point sums with atomics are not deterministic; integer ones are
"$gen" --list --type=f32 codelets/sum.tgm | grep -q '^DTA.V.SS .* deterministic=no' || { echo "FAIL: f32 DTA not marked nondeterministic"; exit 1; }
"$gen" --list --type=i32 codelets/sum.tgm | grep -q '^DTA.V.SS .* deterministic=yes' || { echo "FAIL: i32 DTA not deterministic"; exit 1; }
"$gen" --list --type=f32 codelets/max.tgm | grep -q '^DTA.V.SS .* deterministic=yes' || { echo "FAIL: f32 max DTA not deterministic"; exit 1; }
echo "ok"
