#!/usr/bin/env bash
# Installs what tgm needs from Debian 12's packages. Idempotent: quiet, and
# installs nothing, when every package is already there.
#   setup.sh          what the build needs
#   setup.sh --test   and what the tests need beyond it (scripts/test.sh):
#                     clang-19 with its runtimes (libclang-rt-19-dev holds
#                     ASan, UBSan and libFuzzer) for scripts/sanitize.sh, and
#                     valgrind for the valgrind label, clang-format (14) for
#                     the house style (scripts/format.sh, test style.format)
set -euo pipefail

packages=(cmake make gcc g++ libclang-19-dev libjansson-dev
          hipcc libamdhip64-dev rocm-device-libs)
case "${1:-}" in
  --test) packages+=(clang-19 libclang-rt-19-dev valgrind clang-format) ;;
  "") ;;
  *) echo "usage: setup.sh [--test]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
