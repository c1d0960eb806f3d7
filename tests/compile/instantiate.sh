# instantiate.sh -- sourced by tests that compile a generated file's every
# variant (instantiate.cu) with nvcc and hipcc where they are installed.
#   instantiate DIR BASE NVCC_ARCH NVCC HIPCC: DIR/BASE.cu with nvcc for
#   NVCC_ARCH, DIR/BASE.hip with hipcc for gfx90a (an empty or *NOTFOUND
#   compiler is skipped); prints FAIL and returns 1 on the first error.
instantiate() {
  local dir=$1 base=$2 arch=$3 nvcc=${4:-} hipcc=${5:-}
  local src
  src="$(dirname "${BASH_SOURCE[0]}")/instantiate.cu"
  local defs=(-DTGM_NS=tgm_kernels_$base -DTGM_VARIANTS=TGM_VARIANTS_$base)
  case $nvcc in *NOTFOUND) nvcc= ;; esac
  case $hipcc in *NOTFOUND) hipcc= ;; esac
  if [ -n "$nvcc" ]; then
    "$nvcc" -std=c++17 -arch="$arch" -Werror all-warnings -c -x cu "$src" -I"$dir" \
      -DTGM_FILE="\"$base.cu\"" "${defs[@]}" -o "$dir/$base.o" || { echo "FAIL: nvcc $base.cu"; return 1; }
  fi
  if [ -n "$hipcc" ]; then
    "$hipcc" --offload-arch=gfx90a -std=c++17 -Werror -c -x hip "$src" -I"$dir" \
      -DTGM_FILE="\"$base.hip\"" "${defs[@]}" -o "$dir/$base.hip.o" || { echo "FAIL: hipcc $base.hip"; return 1; }
  fi
}
