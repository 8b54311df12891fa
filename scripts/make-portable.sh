#!/usr/bin/env bash
# A portable tarball of the workbench for Linux machines other than Debian 12, and for a GPU
# server that should run `cuwb worker` without a build (docs/install.md, docs/remote.md).
#
#   scripts/make-portable.sh [--no-cuda-libs] [--program PATH]... [BUILD_DIR] [OUT.tar.xz]
#
# --program adds another program of the build (a gpu test, a bench) with its libraries and a
# command of its own beside cuwb; docs/benchmarks.md runs the gpu tests that way.
# --no-cuda-libs leaves NVRTC and CUPTI out (for machines with the CUDA toolkit: the commands
# then look for them in /usr/local/cuda and CUDA_HOME); the tarball shrinks by two thirds.
# BUILD_DIR (default build/release) holds a finished build; OUT defaults to
# BUILD_DIR/cuda-workbench-VERSION-linux-x86_64.tar.xz. The tarball unpacks to one folder:
#
#   cuda-workbench-VERSION/
#     cuwb, cuda-workbench   the commands: wrappers that set the library and plugin paths
#     bin/                   the programs themselves
#     lib/                   every library they need except the C library's own and the GPU
#                            driver's (those must come from the machine), with NVRTC and CUPTI
#                            from the CUDA toolkit the build used (NVIDIA's redistributable
#                            runtime parts), so a GPU server needs only a driver
#     plugins/               Qt's platform, image-format and icon-engine plugins
#     fonts/                 DejaVu, for windows and offscreen screenshots on servers
#     share/cuda-workbench/samples, share/doc/cuda-workbench
#
# Only `cuwb` is needed on a GPU server; `cuda-workbench` runs there too, offscreen.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cuda_libs=yes
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    --no-cuda-libs) cuda_libs=no ;;
    --program)
        [ -x "${2:-}" ] || { echo "make-portable: --program needs a program, got '${2:-}'" >&2; exit 2; }
        extra+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
        shift ;;
    *) break ;;
    esac
    shift
done
build=$(cd "${1:-$here/build/release}" && pwd)
say() { printf 'make-portable: %s\n' "$*" >&2; }

[ -x "$build/bin/cuwb" ] || { say "no cuwb in $build/bin: build first (./workbench build)"; exit 1; }
version=$("$build/bin/cuwb" --version | sed -n '1s/^cuwb //p')
[ -n "$version" ] || { say "cuwb --version printed no version"; exit 1; }
name=cuda-workbench-$version
out=${2:-$build/$name-linux-x86_64.tar.xz}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/bin" "$root/lib" "$root/plugins" "$root/fonts"

# The installed layout (programs, samples, docs), from the build's own install rules.
cmake --install "$build" --prefix "$stage/prefix" >/dev/null
cp "$stage/prefix/bin/"* "$root/bin/"
for program in "${extra[@]}"; do
    cp "$program" "$root/bin/"
done
mkdir -p "$root/share"
cp -r "$stage/prefix/share/cuda-workbench" "$stage/prefix/share/doc" "$root/share/"

# Libraries the machine must provide itself: the C library's, and the GPU driver's, which
# must match the machine's kernel driver.
is_system_library() {
    case "$1" in
    linux-vdso.so* | ld-linux*.so* | libc.so* | libm.so* | libdl.so* | libpthread.so* | \
        librt.so* | libresolv.so* | libutil.so* | libcuda.so* | libnvidia-*.so*)
        return 0 ;;
    esac
    return 1
}
# The display's libraries: a desktop's own are better (they match its OpenGL driver), so they
# go to lib/display, which the commands use only on a machine without them (a GPU server,
# where the window runs offscreen).
is_display_library() {
    case "$1" in
    libGL.so* | libGLX*.so* | libEGL*.so* | libGLdispatch.so* | libOpenGL.so* | libdrm.so* | \
        libgbm.so* | libX*.so* | libxcb*.so* | libxkbcommon*.so* | libwayland-*.so*)
        return 0 ;;
    esac
    return 1
}

qt_plugins=$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null ||
    echo /usr/lib/x86_64-linux-gnu/qt6/plugins)
if [ -x "$root/bin/cuda-workbench" ]; then
    for kind in platforms imageformats iconengines; do
        [ -d "$qt_plugins/$kind" ] || continue
        mkdir -p "$root/plugins/$kind"
        for plugin in "$qt_plugins/$kind"/*.so; do
            case "$(basename "$plugin")" in
            # The window needs these; the others drag in libraries nobody asked for.
            libqxcb.so | libqoffscreen.so | libqwayland-generic.so | libqsvg.so | \
                libqsvgicon.so | libqjpeg.so | libqgif.so | libqico.so)
                cp "$plugin" "$root/plugins/$kind/" ;;
            esac
        done
    done
    cp /usr/share/fonts/truetype/dejavu/DejaVuSans*.ttf "$root/fonts/" 2>/dev/null || true
    cat >"$root/fonts/fonts.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir prefix="relative">.</dir>
  <dir>/usr/share/fonts</dir>
  <cachedir prefix="xdg">cuda-workbench-fontconfig</cachedir>
</fontconfig>
EOF
fi

# Every library the programs and plugins load, found by the dynamic linker of this machine
# (with the toolkit's folder, as the programs' run path has it).
cuda_lib=$(readelf -d "$build/bin/cuwb" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p' |
    tr ':' '\n' | head -n 1)
mapfile -t objects < <(find "$root/bin" "$root/plugins" -type f)
declare -A copied=()
for object in "${objects[@]}"; do
    while read -r lib arrow path _; do
        [ "$arrow" = "=>" ] && [ -f "$path" ] || continue
        is_system_library "$lib" && continue
        [ $cuda_libs = no ] && case "$lib" in libnvrtc*.so* | libcupti*.so*) continue ;; esac
        [ -n "${copied[$lib]:-}" ] && continue
        if is_display_library "$lib"; then
            mkdir -p "$root/lib/display"
            cp -L "$path" "$root/lib/display/$lib"
        else
            cp -L "$path" "$root/lib/$lib"
        fi
        copied[$lib]=1
    done < <(LD_LIBRARY_PATH="$cuda_lib" ldd "$object" 2>/dev/null)
done
# Loaded at run time rather than linked: NVRTC's builtins, CUPTI and its profiler hosts.
[ $cuda_libs = yes ] && for lib in libnvrtc-builtins.so.* libcupti.so.* libnvperf_host.so libnvperf_target.so; do
    for path in "$cuda_lib"/$lib; do
        [ -f "$path" ] && cp -L "$path" "$root/lib/"
    done
done

# Without NVRTC and CUPTI of its own, the machine's toolkit provides them.
cuda_search='cuda=""'
if [ $cuda_libs = no ]; then
    cuda_search='cuda=""
for d in "${CUDA_HOME:-/usr/local/cuda}/lib64" "${CUDA_HOME:-/usr/local/cuda}/lib" \
    "${CUDA_HOME:-/usr/local/cuda}/extras/CUPTI/lib64"; do
    [ -d "$d" ] && cuda="$cuda:$d"
done'
fi
for path in "$root"/bin/*; do
    program=$(basename "$path")
    cat >"$root/$program" <<EOF
#!/bin/sh
# $program from the portable cuda-workbench $version: its own libraries first, then the
# machine's (the GPU driver's, wherever the distribution keeps them), and the display's from
# lib/display only where the machine has none (a server, offscreen).
here=\$(cd "\$(dirname "\$0")" && pwd)
$cuda_search
display=""
ldconfig=\$(command -v ldconfig || echo /sbin/ldconfig)
for lib in libEGL.so.1 libGL.so.1 libxkbcommon.so.0 libX11.so.6 libxcb.so.1; do
    "\$ldconfig" -p 2>/dev/null | grep -q "\$lib" || { display=":\$here/lib/display"; break; }
done
LD_LIBRARY_PATH="\$here/lib\$cuda\$display\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
QT_PLUGIN_PATH="\$here/plugins"
FONTCONFIG_FILE="\$here/fonts/fonts.conf"
export LD_LIBRARY_PATH QT_PLUGIN_PATH FONTCONFIG_FILE
exec "\$here/bin/$program" "\$@"
EOF
    chmod +x "$root/$program"
done

tar -C "$stage" -cJf "$out" "$name"
say "$(du -h "$out" | cut -f1) in $out (${#copied[@]} libraries; unpack and run $name/cuwb)"
