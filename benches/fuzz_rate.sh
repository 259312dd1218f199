#!/usr/bin/env bash
# Executions per second of every `_agree` fuzz target, with the oracle's speed-ups and
# with the plain search (SGCHECK_ORACLE_SPEEDUPS=none), side by side: each target runs
# SECONDS (default 8) per mode, the two modes back to back, from the committed seeds,
# one process on one core (-O, no sanitizer). Executions are counted per second of the
# process's CPU time (user + system), so other work on the machine does not lower the
# figure much; the wall-clock rate libFuzzer itself sees is printed too.
# Usage: benches/fuzz_rate.sh [SECONDS] [TARGET...]
# (FUZZ_RATE_NO_BUILD=1 measures the binaries already built.)
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-8}"
shift || true
if [ -z "${FUZZ_RATE_NO_BUILD:-}" ]; then
    cargo fuzz build --sanitizer none -O >/dev/null 2>&1
fi
host="$(rustc -vV | sed -n 's/^host: //p')"
bin="fuzz/target/$host/release"
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list | grep '_agree$')
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rate() { # target mode
    local dir="$work/$1-$2" log="$work/$1-$2.log"
    mkdir -p "$dir"
    cp corpus/fuzz/"$1"/* "$dir"/ 2>/dev/null || true
    if [ "$2" = plain ]; then export SGCHECK_ORACLE_SPEEDUPS=none; else unset SGCHECK_ORACLE_SPEEDUPS; fi
    local TIMEFORMAT='%U %S'
    { time "$bin/$1" "$dir" -max_total_time="$secs" -print_final_stats=1 >"$log" 2>&1 || true; } 2>"$log.cpu"
    unset SGCHECK_ORACLE_SPEEDUPS
    local runs
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    awk -v r="${runs:-0}" -v s="$secs" '{ c = $1 + $2; printf "%d %d\n", (c > 0 ? r / c : 0), r / s }' "$log.cpu"
}
echo "| target | plain search, exec per CPU s | speed-ups, exec per CPU s | ratio | speed-ups, exec per wall s |"
echo "|---|---:|---:|---:|---:|"
for t in "${targets[@]}"; do
    read -r p _ < <(rate "$t" plain)
    read -r f fw < <(rate "$t" fast)
    ratio=$(awk -v a="$f" -v b="$p" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }')
    echo "| \`$t\` | $p | $f | $ratio | $fw |"
done
