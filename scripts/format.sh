#!/usr/bin/env bash
# The house style (.clang-format) over the project's own C, C++ and CUDA
# sources.
#
#   bash scripts/format.sh           reformat them in place
#   bash scripts/format.sh --check   change nothing; print the diff of what
#                                    would change; exit 1 if any file is not
#                                    formatted, 0 if all are
#
# The files are the tracked ones (git ls-files) that match FILES below, less
# EXCLUDE: generated headers, templates, X-macro .def files and the codelet
# prelude are not formatted, and untracked folders (build*/) never count.
# CLANG_FORMAT=/path/to/clang-format chooses the binary; CI's is clang-format
# 14 (Debian 12's `clang-format`), and other versions may format some lines
# differently. Exit status: 0 ok, 1 not formatted (--check), 2 usage or setup.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,15s/^# \{0,1\}//p' "$0"; }

check=0
case $# in
  0) ;;
  1)
    case $1 in
      --check) check=1 ;;
      -h | --help) usage; exit 0 ;;
      *) echo "format.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
    ;;
  *) echo "format.sh: at most one argument" >&2; usage >&2; exit 2 ;;
esac

FILES=(
  ':(glob)codegen/*.c' ':(glob)codegen/*.h'
  ':(glob)runtime/**/*.c' ':(glob)runtime/**/*.h' ':(glob)runtime/**/*.cu'
  ':(glob)sim/**/*.cpp' ':(glob)sim/**/*.h'
  ':(glob)tests/**/*.c' ':(glob)tests/**/*.h' ':(glob)tests/**/*.cpp' ':(glob)tests/**/*.cu'
  ':(glob)examples/**/*.c' ':(glob)examples/**/*.cu' ':(glob)examples/**/*.cpp'
)
EXCLUDE=(
  ':(exclude)codegen/prelude.h'                            # the codelet language's prelude
  ':(exclude)runtime/reduce/include/tgm/reduce_spectra.h'  # made by tgm-gen --reduce-api
  ':(exclude,glob)tests/embed/headers/**'                  # made by tgm-gen --embed
  ':(exclude,glob)**/generated/**'
  ':(exclude,glob)**/templates/**'
  ':(exclude,glob)**/*.tpl'
  ':(exclude,glob)**/*.def'
)

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
  echo "format.sh: '$CLANG_FORMAT' is not installed (or not on PATH)." >&2
  echo "format.sh: install clang-format 14 (Debian 12: apt-get install clang-format)," >&2
  echo "format.sh: or set CLANG_FORMAT=/path/to/clang-format." >&2
  exit 2
fi
if ! command -v git >/dev/null 2>&1 || ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "format.sh: needs git and a git checkout: the file list comes from git ls-files" >&2
  exit 2
fi
if [ ! -f .clang-format ]; then
  echo "format.sh: no .clang-format at the repository root" >&2
  exit 2
fi
version=$("$CLANG_FORMAT" --version)
if ! [[ $version =~ version\ 14\. ]]; then
  echo "format.sh: warning: CI uses clang-format 14; this is: $version" >&2
fi

files=()
while IFS= read -r -d '' f; do
  # A tracked file deleted in the working tree is skipped.
  if [ -f "$f" ]; then files+=("$f"); fi
done < <(git ls-files -z -- "${FILES[@]}" "${EXCLUDE[@]}")
if [ ${#files[@]} -eq 0 ]; then
  echo "format.sh: no files to format" >&2
  exit 2
fi

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

bad=0
for f in "${files[@]}"; do
  if ! "$CLANG_FORMAT" --style=file -- "$f" >"$tmp"; then
    echo "format.sh: clang-format failed on $f" >&2
    exit 2
  fi
  if cmp -s "$f" "$tmp"; then
    continue
  fi
  bad=$((bad + 1))
  if [ $check = 1 ]; then
    diff -u --label "a/$f" --label "b/$f" -- "$f" "$tmp" || true
  else
    cat "$tmp" >"$f" # keeps the file's mode and inode
    echo "formatted $f"
  fi
done

if [ $check = 1 ]; then
  if [ $bad -gt 0 ]; then
    echo "format.sh: $bad of ${#files[@]} files are not formatted; run: bash scripts/format.sh" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files formatted"
else
  echo "format.sh: $bad of ${#files[@]} files reformatted"
fi
