#!/usr/bin/env bash
# Audit throughput: batched and parallel runs against one process per case, side by
# side with two baselines measured in the same run.
#
#   benches/audit_throughput.sh [PROBLEM...]     (default: p2197 hdu1846 hdu2897 bzoj1188)
#   CASES=20000 SEED=1 REPEAT=3 benches/audit_throughput.sh bzoj1188
#
# Audits the plain C++ solution benches/cpp/<problem>.cpp (compiled with g++ -O2 into
# a temporary directory) on the same CASES cases (same seed: the random cases are the
# same whether batched or not) in three modes and prints cases per second for each:
#   batched, --jobs = cores      (the default)
#   --no-batch, --jobs = cores   (parallel, one process per case)
#   --no-batch --jobs 1          (one process per case, one at a time)
# and the per-run cost against an uncontained start of the same program:
#   spawn: benches/cpp/spawn_loop.c starts the program with posix_spawn, one case as
#          input (bzoj1188 only: one case from the generator below), output read
#          through a pipe, one run at a time; "overhead per run" is sgcheck's time per
#          run (--no-batch --jobs 1 --oracle-budget 0, which also generates and judges
#          each case) over the spawn's.
# For bzoj1188 it also runs online-judge-tools' generate loop (`oj g/i --hack-actual
# SOL --hack-expected SOL -j cores GEN` for OJ_SECONDS, default 20; oj installed with
# pip into a temporary virtual environment; GEN is benches/cpp/gen_bzoj1188.c), one
# case per input, and prints its cases per second next to the audit's. Each figure is measured REPEAT
# times (default 3), interleaved, and printed as a range (min-max).
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${CASES:-20000}
seed=${SEED:-1}
repeat=${REPEAT:-3}
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(p2197 hdu1846 hdu2897 bzoj1188)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=$(nproc)

cargo build --release --quiet
bin=$PWD/target/release/sgcheck
gcc -O2 -o "$work/spawn_loop" benches/cpp/spawn_loop.c
gcc -O2 -o "$work/gen_bzoj1188" benches/cpp/gen_bzoj1188.c

rate() {
    local problem=$1
    shift
    "$bin" audit "$problem" --seed "$seed" --cases "$cases" --time 600 --timeout 20 \
        --json --no-progress "$@" -- "$work/$problem" |
        sed -n 's/.*"cases_per_second": *\([0-9.]*\).*/\1/p'
}

# min-max of numbers on standard input, rounded
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f", lo, hi }'; }

oj_rate() {
    # Cases per second of oj's generate-and-compare loop on bzoj1188: in hack mode it
    # runs until it finds a failing case (never, the two programs being the same), so
    # it runs for OJ_SECONDS (default 20) and its "N-th attempt" lines are counted.
    local secs=${OJ_SECONDS:-20} n
    rm -rf "$work/oj"
    mkdir -p "$work/oj"
    (cd "$work/oj" && timeout "$secs" "$work/venv/bin/oj" g/i --hack-actual "$work/bzoj1188" \
        --hack-expected "$work/bzoj1188" -j "$jobs" "$work/gen_bzoj1188" >"$work/oj.log" 2>&1) || true
    n=$(grep -c -- '-th attempt' "$work/oj.log" || true)
    awk -v n="$n" -v s="$secs" 'BEGIN { printf "%.1f\n", n / s }'
}

have_oj=0
for p in "${problems[@]}"; do
    if [ "$p" = bzoj1188 ] && [ $have_oj = 0 ]; then
        if python3 -m venv "$work/venv" >/dev/null 2>&1 &&
            "$work/venv/bin/pip" install --quiet online-judge-tools >/dev/null 2>&1; then
            have_oj=1
        else
            echo "(online-judge-tools could not be installed: no oj baseline)" >&2
            have_oj=2
        fi
    fi
done

echo "containment: $("$bin" audit p2197 --cases 1 --json --no-progress -- /bin/true 2>/dev/null | sed -n 's/.*"containment": *"\([a-z-]*\)".*/\1/p'), $(nproc) cores, $repeat repeats (ranges min-max)"
echo
echo "| problem | batched, all cores | one per run, all cores | one per run, one job | bare posix_spawn, one job | overhead per run | oj g/i, all cores | batched / oj |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for p in "${problems[@]}"; do
    g++ -O2 -o "$work/$p" "benches/cpp/$p.cpp"
    # One case of the size the generator draws (bzoj1188 only: the per-run figures
    # compare like with like there).
    [ "$p" = bzoj1188 ] && "$work/gen_bzoj1188" >"$work/$p.in"
    : >"$work/a" ; : >"$work/b" ; : >"$work/c" ; : >"$work/s" ; : >"$work/o" ; : >"$work/r"
    for _ in $(seq "$repeat"); do
        rate "$p" >>"$work/a"
        rate "$p" --no-batch >>"$work/b"
        single=$(rate "$p" --no-batch --jobs 1 --oracle-budget 0)
        echo "$single" >>"$work/c"
        if [ -s "$work/$p.in" ]; then
            spawn=$("$work/spawn_loop" "$(( cases < 5000 ? cases : 5000 ))" "$work/$p.in" "$work/$p")
            echo "$spawn" >>"$work/s"
            awk -v a="$single" -v b="$spawn" 'BEGIN { printf "%.2f\n", b / a }' >>"$work/r"
        fi
        if [ "$p" = bzoj1188 ] && [ $have_oj = 1 ]; then
            oj_rate >>"$work/o"
        fi
    done
    if [ -s "$work/o" ]; then
        oj=$(range <"$work/o")
        ratio=$(paste "$work/a" "$work/o" | awk '{ print $1 / $2 }' | sort -g |
            awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.1fx-%.1fx", lo, hi }')
    else
        oj="-"
        ratio="-"
    fi
    if [ -s "$work/r" ]; then
        spawned=$(range <"$work/s")
        over=$(sort -g "$work/r" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2fx-%.2fx", lo, hi }')
    else
        spawned="-"
        over="-"
    fi
    echo "| $p | $(range <"$work/a") | $(range <"$work/b") | $(range <"$work/c") | $spawned | $over | $oj | $ratio |"
done
