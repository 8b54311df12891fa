#!/usr/bin/env bash
# Installs NVIDIA's disassembler nvdisasm, which the SASS view (cuwb sass) runs, into
# BUILD_DIR/tools/nvdisasm when there is none already: a toolkit installed from Debian's or
# PyPI's packages often lacks it. It comes from PyPI's nvidia-cuda-nvdisasm (NVIDIA's, under
# the CUDA EULA; installed here, never committed), pinned to the toolkit's major version.
# Without pip or the network it says so and succeeds: the SASS view then says that nvdisasm
# is unavailable. `./workbench build` runs it; with a CMake preset, run it by hand:
#
#   scripts/install-nvdisasm.sh BUILD_DIR [CUDA_HOME]
set -uo pipefail

say() { printf 'workbench: %s\n' "$*" >&2; }

[ $# -ge 1 ] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
build_dir=$1
cuda_home=${2:-${CUDA_HOME:-/usr/local/cuda}}
target=$build_dir/tools/nvdisasm

# Already there: pinned by the user, in the toolkit, on the PATH, or installed before.
[ -n "${CUWB_NVDISASM:-}" ] && exit 0
[ -x "$cuda_home/bin/nvdisasm" ] && exit 0
command -v nvdisasm >/dev/null 2>&1 && exit 0
for binary in "$target"/nvidia/*/bin/nvdisasm; do
    [ -x "$binary" ] && "$binary" --version >/dev/null 2>&1 && exit 0
done

# The toolkit's major version: version.json, else nvcc, else cuda.h.
major=""
if [ -f "$cuda_home/version.json" ]; then
    major=$(sed -n 's/.*"cuda"[^}]*"version" *: *"\([0-9]*\)\..*/\1/p' "$cuda_home/version.json" |
        head -n 1)
fi
if [ -z "$major" ] && [ -x "$cuda_home/bin/nvcc" ]; then
    major=$("$cuda_home/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\..*/\1/p' |
        head -n 1)
fi
if [ -z "$major" ] && [ -f "$cuda_home/include/cuda.h" ]; then
    version=$(sed -n 's/^#define CUDA_VERSION \([0-9]*\).*/\1/p' "$cuda_home/include/cuda.h" |
        head -n 1)
    [ -n "$version" ] && major=$((version / 1000))
fi

python=""
for candidate in python3 /usr/bin/python3; do
    if "$candidate" -m pip --version >/dev/null 2>&1; then
        python=$candidate
        break
    fi
done
if [ -z "$python" ]; then
    say "nvdisasm was not found and pip is not installed (Debian package python3-pip), so the"
    say "SASS view (cuwb sass) will say that it is unavailable."
    exit 0
fi

install() {
    local spec=$1
    local staging=$target.partial
    rm -rf "$staging"
    PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1 \
        "$python" -m pip install --quiet --no-deps --no-input --retries 1 --timeout 60 \
        --target "$staging" "$spec" || { rm -rf "$staging"; return 1; }
    rm -rf "$target"
    mv "$staging" "$target"
}

spec=nvidia-cuda-nvdisasm
[ -n "$major" ] && spec="nvidia-cuda-nvdisasm==$major.*"
say "nvdisasm was not found in $cuda_home/bin or on the PATH; installing $spec from PyPI"
say "into $target (NVIDIA's package, under the CUDA EULA) for the SASS view"
if ! install "$spec"; then
    if [ -n "$major" ]; then
        # A newer nvdisasm reads the machine code of an older toolkit for the architectures
        # it still supports (sm_75 and later for 13.x).
        say "no $spec could be installed; trying the newest nvidia-cuda-nvdisasm"
        install nvidia-cuda-nvdisasm || true
    fi
fi
for binary in "$target"/nvidia/*/bin/nvdisasm; do
    if [ -x "$binary" ] && "$binary" --version >/dev/null 2>&1; then
        say "installed $("$binary" --version | sed -n 's/.*, V/nvdisasm /p')"
        exit 0
    fi
done
say "could not install nvdisasm (no network, or PyPI unreachable?); the SASS view (cuwb sass)"
say "will say that it is unavailable. To retry: scripts/install-nvdisasm.sh $build_dir"
exit 0
