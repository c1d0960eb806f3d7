#!/usr/bin/env bash
# outputs.sh TGM_GEN ROOT TGM_TUNE — what tgm-gen writes replaces only what it
# should (found by a probe, which turned a root machine's /dev/null into a
# file with `-o /dev/null`):
#   - an -o that is a FIFO (or a device, a folder) is refused, left as it is;
#   - an -o that is a symbolic link is written through: the link stays;
#   - an -o that is an input of the run (the --embed database, a codelet file)
#     is refused, the input intact;
#   - -o DIR commits all or nothing: a folder in the way of one output fails
#     the run before any file is replaced, and no temporary is left;
#   - --reduce-api: a spectrum given twice is an error (its call would be
#     defined twice), and each header's include guard comes from its name;
#   - a FIFO where tgm-gen or tgm-tune reads a file is "not a file" at once
#     (it waited for a writer for ever); a FIFO or a folder as tgm-tune's
#     database leaves no lock file beside it;
#   - SIGTERM during the CPU check removes the check's folder and ends its
#     jobs.
set -u
gen=$1 root=$2 tune=${3:-}
work=$(mktemp -d /tmp/tgm-outputs.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok $*"; }
cp "$root/codelets/sum.tgm" "$root/codelets/max.tgm" .

# a FIFO as -o: refused at once, still a FIFO
mkfifo fifo.cuh
timeout 60 "$gen" --embed --no-check --variant=DSL.VS.SV --type=i32 -o fifo.cuh sum.tgm 2>err
rc=$?
[ $rc -eq 1 ] && [ -p fifo.cuh ] && grep -q "'fifo.cuh' is a FIFO, not a file" err && ok "-o FIFO refused" ||
  { fail "-o FIFO: exit $rc"; cat err; }

# a symbolic link as -o: written through, the link kept
printf 'old\n' >target.cuh && ln -s target.cuh link.cuh
"$gen" --embed --no-check --variant=DSL.VS.SV --type=i32 -o link.cuh sum.tgm 2>err
rc=$?
[ $rc -eq 0 ] && [ -L link.cuh ] && grep -q "tgm_sum_i32" target.cuh && ok "-o LINK written through" ||
  { fail "-o LINK: exit $rc, link $( [ -L link.cuh ] && echo kept || echo replaced)"; cat err; }
ln -s nowhere.cuh dangling.cuh
"$gen" --embed --no-check --variant=DSL.VS.SV --type=i32 -o dangling.cuh sum.tgm 2>err
[ $? -eq 1 ] && [ -L dangling.cuh ] && grep -q "symbolic link to nothing" err && ok "-o dangling link refused" ||
  { fail "-o dangling link"; cat err; }

# an input as -o: refused, the input intact
cp sum.tgm keep.tgm
"$gen" --reduce-api -o keep.tgm keep.tgm 2>err
[ $? -eq 1 ] && cmp -s keep.tgm sum.tgm && grep -q "'keep.tgm' is an input of this run" err &&
  ok "-o the codelet file refused" || { fail "-o the codelet file"; cat err; }
"$gen" --no-check --type=i32 -o gen sum.tgm 2>err || { fail "gen: $?"; cat err; }
h=$(sed -n 's/.*"source_hash": "\([0-9a-f]*\)".*/\1/p' gen/sum_i32.json | head -1)
sed "s/@sum@/$h/g; s/@max@/$h/g; s/@min@/$h/g" "$root/tests/embed/fixture-gpus.db.json" >db.json
cp db.json db.orig
"$gen" --embed=db.json --type=i32 -o db.json sum.tgm 2>err
[ $? -eq 1 ] && cmp -s db.json db.orig && ok "--embed=DB -o DB refused" || { fail "--embed=DB -o DB"; cat err; }

# -o DIR: a folder in the way of the manifest fails the run before the .cu
# is replaced; no temporaries are left
"$gen" --no-check --type=i32 -o set sum.tgm 2>err || { fail "set: $?"; cat err; }
ino=$(stat -c %i set/sum_i32.cu)
rm set/sum_i32.json && mkdir set/sum_i32.json
"$gen" --no-check --type=i32 -o set sum.tgm 2>err
rc=$?
[ $rc -eq 1 ] && [ "$(stat -c %i set/sum_i32.cu)" = "$ino" ] && grep -q "is a folder, not a file" err &&
  [ -z "$(ls set | grep '\.tmp\.')" ] && ok "-o DIR all or nothing" ||
  { fail "-o DIR with a folder in the way: exit $rc"; cat err; ls set; }

# a killed run's temporaries are swept by the next; a file of the user's
# that only looks like one stays
rmdir set/sum_i32.json
: >set/sum_i32.cu.tmp.4242 && : >set/sum_i32.json.tmp.Ab3dE9 && : >set/sum_i32.cu.tmp.notes
"$gen" --no-check --type=i32 -o set sum.tgm 2>err || { fail "set again: $?"; cat err; }
[ ! -e set/sum_i32.cu.tmp.4242 ] && [ ! -e set/sum_i32.json.tmp.Ab3dE9 ] && [ -e set/sum_i32.cu.tmp.notes ] &&
  ok "stale temporaries swept, a look-alike kept" || fail "the sweep: $(ls set)"

# --reduce-api: a spectrum twice is an error; the guard from the header's name
"$gen" --reduce-api -o twice.h sum.tgm sum.tgm 2>err
[ $? -eq 1 ] && [ ! -e twice.h ] && grep -q "tgm_reduce_sum_i32 is made twice" err &&
  ok "--reduce-api: a spectrum twice refused" || { fail "--reduce-api twice"; cat err; }
"$gen" --reduce-api -o api_sum.h sum.tgm 2>err && "$gen" --reduce-api -o api_max.h max.tgm 2>>err ||
  { fail "--reduce-api: $?"; cat err; }
grep -q "^#ifndef TGM_API_API_SUM_H" api_sum.h && grep -q "^#ifndef TGM_API_API_MAX_H" api_max.h &&
  ok "--reduce-api: the guard from the name" || fail "--reduce-api guards: $(grep -h '^#ifndef' api_*.h)"
if command -v cc >/dev/null; then
  printf '#include "api_sum.h"\n#include "api_max.h"\nvoid *f(void) { return (void *)tgm_reduce_max_i32; }\n' >two.c
  cc -fsyntax-only -I "$root/runtime/reduce/include" -I "$root/runtime/include" two.c 2>err &&
    ok "two --reduce-api headers in one file" || { fail "two --reduce-api headers"; cat err; }
  # found by a probe: a bool result's header as C (no <stdbool.h>); two
  # headers of Arg spectra, or one beside <tgm/reduce_spectra.h> (tgm_arg_i32
  # and the call defined twice); -o reduce.h (the library's own guard)
  cp "$root/tests/ops/anybool.tgm" "$root/codelets/argmax.tgm" "$root/codelets/argmin.tgm" .
  "$gen" --reduce-api -o anybool_api.h anybool.tgm 2>err && "$gen" --reduce-api -o argmax_api.h argmax.tgm 2>>err &&
    "$gen" --reduce-api -o argmin_api.h argmin.tgm 2>>err && "$gen" --reduce-api -o reduce.h argmax.tgm 2>>err ||
    { fail "--reduce-api of anybool, argmax, argmin: $?"; cat err; }
  printf '#include "anybool_api.h"\n#include "argmax_api.h"\n#include "argmin_api.h"\n#include "tgm/reduce_spectra.h"\nvoid f(void) { (void)tgm_reduce_argmax_i32; (void)tgm_reduce_argmin_i32; (void)tgm_reduce_anybool_i32; }\n' >args.c
  printf '#include "reduce.h"\n#include "tgm/reduce.h"\ntgm_status g(tgm_ctx *c) { return tgm_ctx_create(&c, 0); }\n' >own.c
  for std in c99 c11 c17; do
    cc -std=$std -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I . -I "$root/runtime/reduce/include" \
      -I "$root/runtime/include" args.c 2>err || { fail "-std=$std: bool, Arg headers together"; head -5 err; }
    cc -std=$std -Wall -Wextra -Werror -fsyntax-only -I . -I "$root/runtime/reduce/include" \
      -I "$root/runtime/include" own.c 2>err || { fail "-std=$std: -o reduce.h beside <tgm/reduce.h>"; head -5 err; }
  done
  command -v c++ >/dev/null && { c++ -std=c++11 -Wall -Wextra -Werror -fsyntax-only -x c++ -I . \
    -I "$root/runtime/reduce/include" -I "$root/runtime/include" args.c 2>err ||
    { fail "C++: bool, Arg headers together"; head -5 err; }; }
  ok "--reduce-api headers: as C and C++, several together"
fi

# a FIFO read as a file: not a file, at once
mkfifo fifo.json
timeout 30 "$gen" --embed=fifo.json --type=i32 -o h.cuh sum.tgm 2>err
[ $? -eq 1 ] && grep -q "not a file" err && ok "--embed=FIFO refused" || { fail "--embed=FIFO"; cat err; }
if [ -n "$tune" ]; then
  timeout 30 "$tune" fifo.json --db d.json >/dev/null 2>err
  [ $? -eq 2 ] && grep -q "not a file" err && ok "tgm-tune FIFO manifest refused" ||
    { fail "tgm-tune FIFO manifest"; cat err; }
  timeout 30 "$tune" gen/sum_i32.json --db fifo.json >/dev/null 2>err
  [ $? -eq 4 ] && grep -q "not a file" err && [ ! -e fifo.json.lock ] && ok "tgm-tune --db FIFO refused" ||
    { fail "tgm-tune --db FIFO (or its lock file left)"; cat err; }
  # a folder as the database: refused, and no DIR.lock made beside it
  mkdir dbdir
  timeout 30 "$tune" gen/sum_i32.json --db dbdir >/dev/null 2>err
  [ $? -eq 4 ] && grep -q "dbdir: not a file" err && [ ! -e dbdir.lock ] && ok "tgm-tune --db FOLDER refused" ||
    { fail "tgm-tune --db FOLDER (or dbdir.lock left)"; cat err; }
fi
# SIGTERM during the CPU check: the check's folder removed and its jobs
# ended (were left in $TMPDIR, the compilers running on as orphans)
mkdir tmp
TMPDIR=$work/tmp "$gen" --type=i32 -o sigout sum.tgm 2>/dev/null &
pid=$!
for _ in $(seq 1 200); do
  ls tmp | grep -q tgm-check- && break
  sleep 0.1
done
sleep 1
kill -TERM $pid
wait $pid
rc=$?
sleep 0.5
left=$(ls -l /proc/*/cwd 2>/dev/null | grep -c "$work/tmp")
[ $rc -eq 143 ] && [ -z "$(ls tmp | grep tgm-check-)" ] && [ "$left" -eq 0 ] && [ ! -e sigout ] &&
  ok "SIGTERM during the check: folder removed, jobs ended" ||
  fail "SIGTERM during the check: exit $rc, left: $(ls tmp) ($left processes in it)"

[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
