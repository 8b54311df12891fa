#!/usr/bin/env bash
# CI's sanitizer stage (docs/fuzzing.md), run by `./workbench sanitize` after the tests:
#   1. one clang build (build/sanitize, or SANITIZE_BUILD_DIR) with AddressSanitizer, UBSan and
#      libFuzzer's instrumentation (-DCUWB_SANITIZE=ON) of the core test suite and the fuzz
#      targets of fuzz/, and with --with-cli of `cuwb` and the cli suite too, with --with-gui
#      of those and the window and the gui suite; with --fuzz-only of the fuzz targets alone
#      (their seeds are still replayed, but no suite runs);
#   2. those suites under the sanitizers, and every fuzz seed once (ctest -L fuzz);
#   3. each fuzz target for SECONDS (default 20) on a copy of its seeds, two at a time.
# Any sanitizer report, leak, crash or failed test fails the stage. .ci/run chooses the
# variant from the time its first stage left (docs/fuzzing.md).
#
#   scripts/ci-sanitize.sh [--with-cli|--with-gui|--fuzz-only] [--build-only] [SECONDS]
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${SANITIZE_BUILD_DIR:-$here/build/sanitize}
jobs=${JOBS:-$(nproc)}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
build_only=false
target=cuwb_sanitize_core
labels='core|fuzz'
while [[ "${1:-}" == --* ]]; do
    case "$1" in
    --build-only) build_only=true ;;
    --with-cli) target=cuwb_sanitize labels='core|cli|fuzz' ;;
    --with-gui) target=cuwb_sanitize_gui labels='core|cli|gui|fuzz' ;;
    --fuzz-only) target=cuwb_sanitize_fuzz labels='fuzz' ;;
    *) echo "usage: $0 [--with-cli|--with-gui|--fuzz-only] [--build-only] [SECONDS]" >&2; exit 2 ;;
    esac
    shift
done
seconds=${1:-20}

say() { printf 'sanitize: %s\n' "$*" >&2; }

# An error anywhere aborts with a stack trace; leaks are errors. The suppressions are for
# third-party code only, each explained in its file (scripts/lsan.supp).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0"
export LSAN_OPTIONS="print_suppressions=0:suppressions=$here/scripts/lsan.supp"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

start=$(date +%s)
cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE= \
    "-DCMAKE_CXX_FLAGS=-O0 -gline-tables-only" -DCUWB_SANITIZE=ON \
    -DCUDAToolkit_ROOT="$cuda_home" >/dev/null
cmake --build "$build_dir" -j "$jobs" --target "$target"
say "built in $(($(date +%s) - start)) s"
$build_only && exit 0

# Left out, each for a reason of its own (docs/fuzzing.md): installed_layout installs a full
# build, which this one is not; CUPTI (tst_metricplan, tst_roofline, tst_cuwbinspect's roofline,
# and in the gui suite tst_measureoptionsdialog, which plans metric passes)
# dlopens with RTLD_DEEPBIND, which ASan refuses; the compile server limits its address space
# (RLIMIT_AS), which ASan's shadow memory does not fit in; tst_realworld compiles every kernel of
# tests/realworld/ and takes over five minutes under ASan (it runs in the release suite).
excluded='installed_layout|tst_metricplan|tst_roofline|tst_cuwbinspect|tst_cuwbcompileserver'
excluded+='|tst_measureoptionsdialog'
excluded+='|tst_realworld'
(cd "$build_dir" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$jobs" \
    -L "$labels" -E "$excluded")
say "tests done at $(($(date +%s) - start)) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
run_target() {
    local name=$1
    mkdir -p "$work/$name"
    local dict=()
    [ -f "$here/fuzz/dict/$name.dict" ] && dict=("-dict=$here/fuzz/dict/$name.dict")
    # New inputs go to the copy in $work, never into the seeds; crash files there too.
    if ! "$build_dir/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/$name/" "${dict[@]}" \
        "$work/$name" "$here/fuzz/corpus/$name" >"$work/$name.log" 2>&1; then
        tail -n 60 "$work/$name.log" >&2
        return 1
    fi
    grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$work/$name.log" | tr '\n' ' ' >&2
    echo >&2
}
targets=(project sweep lesson expression diagnostic signature protocol)
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    pids=()
    for name in "${targets[@]:i:2}"; do
        say "fuzzing $name for $seconds s"
        run_target "$name" &
        pids+=("$!:$name")
    done
    for entry in "${pids[@]}"; do
        wait "${entry%%:*}" || failed+=("${entry#*:}")
    done
done
if [ ${#failed[@]} -gt 0 ]; then
    say "fuzz targets that failed: ${failed[*]}"
    exit 1
fi
say "done in $(($(date +%s) - start)) s"
