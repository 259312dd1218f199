#!/usr/bin/env bash
# Audit throughput: batched and parallel runs against one process per case.
#
#   benches/audit_throughput.sh [PROBLEM...]     (default: p2197 hdu1846 hdu2897)
#   CASES=20000 SEED=1 benches/audit_throughput.sh p2197
#
# Audits the plain C++ solution benches/cpp/<problem>.cpp (compiled with g++ -O2 into
# a temporary directory) on the same CASES cases (same seed: the random cases are the
# same whether batched or not) in three modes and prints cases per second for each:
#   batched, --jobs = cores      (the default)
#   --no-batch, --jobs = cores   (parallel, one process per case)
#   --no-batch --jobs 1          (one process per case, one at a time: the baseline,
#                                 what a stress loop spawning a process per test does)
# How much batching can give depends on how many cases one input may hold: p2197
# allows T <= 10, hdu1846 C <= 100, hdu2897 reads lines to end of input.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${CASES:-20000}
seed=${SEED:-1}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(p2197 hdu1846 hdu2897)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
bin=target/release/sgcheck

rate() {
    local problem=$1
    shift
    "$bin" audit "$problem" --seed "$seed" --cases "$cases" --time 600 --timeout 20 \
        --json --no-progress "$@" -- "$work/$problem" |
        sed -n 's/.*"cases_per_second": *\([0-9.]*\).*/\1/p'
}

echo "| problem | limits (cases per input first) | batched, all cores | one per run, all cores | one per run, one job | speed-up |"
echo "|---|---|---:|---:|---:|---:|"
for p in "${problems[@]}"; do
    g++ -O2 -o "$work/$p" "benches/cpp/$p.cpp"
    per=$("$bin" list --json | sed -n "/\"id\": \"$p\"/,/}/s/.*\"limits\": \"\(.*\)\".*/\1/p" | head -1)
    batched=$(rate "$p")
    parallel=$(rate "$p" --no-batch)
    single=$(rate "$p" --no-batch --jobs 1)
    awk -v p="$p" -v l="$per" -v a="$batched" -v b="$parallel" -v c="$single" \
        'BEGIN { printf "| %s | %s | %.0f | %.0f | %.0f | %.1fx |\n", p, l, a, b, c, a / c }'
done
