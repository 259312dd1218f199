#!/usr/bin/env bash
# Audit throughput: batched and parallel runs against one process per case.
#
#   benches/audit_throughput.sh [CASES] [SEED]
#
# Audits a correct p2197 solver (C when a compiler is around, else POSIX sh) on the
# same CASES cases (same seed: the random cases are the same whether batched or not)
# in three modes and prints cases per second for each:
#   batched, --jobs = cores      (the default)
#   --no-batch, --jobs = cores   (parallel, one process per case)
#   --no-batch --jobs 1          (one process per case, one at a time: the baseline)
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-20000}
seed=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
bin=target/release/sgcheck

cat > "$work/good.c" <<'C'
#include <stdio.h>
int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n, x = 0;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) { int p; if (scanf("%d", &p) != 1) return 1; x ^= p; }
        puts(x ? "Yes" : "No");
    }
    return 0;
}
C
if cc -O2 -o "$work/good" "$work/good.c" 2>/dev/null; then
    cmd=("$work/good")
else
    cat > "$work/good.sh" <<'SH'
set -f
set -- $(cat)
t=$1; shift
while [ "$t" -gt 0 ]; do
  n=$1; shift; x=0
  while [ "$n" -gt 0 ]; do x=$((x ^ $1)); shift; n=$((n-1)); done
  if [ "$x" -ne 0 ]; then echo Yes; else echo No; fi
  t=$((t-1))
done
SH
    cmd=(sh "$work/good.sh")
fi

rate() {
    "$bin" audit p2197 --seed "$seed" --cases "$cases" --time 600 --timeout 20 \
        --json --no-progress "$@" -- "${cmd[@]}" |
        sed -n 's/.*"cases_per_second": *\([0-9.]*\).*/\1/p'
}

echo "audit p2197, $cases cases, seed $seed, command: ${cmd[*]}"
batched=$(rate)
printf '%-28s %10.0f cases/s\n' "batched, all cores" "$batched"
parallel=$(rate --no-batch)
printf '%-28s %10.0f cases/s\n' "one per run, all cores" "$parallel"
single=$(rate --no-batch --jobs 1)
printf '%-28s %10.0f cases/s\n' "one per run, one job" "$single"
awk -v a="$batched" -v b="$single" \
    'BEGIN { printf "speed-up over one process per case: %.1fx\n", a / b }'
