#!/usr/bin/env bash
# Tier-2 depth of `sgcheck verify` per game: positions compared with the oracle in one
# game's slot of the default run (`--time 50` shared by every game, so 50/N seconds
# each) and the rate, side by side in one run for up to three builds or modes, each
# game's modes back to back, ROUNDS times (the median is printed):
#   - before: an earlier build of sgcheck (BEFORE=path/to/sgcheck), when given;
#   - plain:  this build with SGCHECK_ORACLE_SPEEDUPS=none (the plain search);
#   - fast:   this build with every speed-up.
# Usage: benches/verify_depth.sh [ROUNDS] [GAME...]   (default: 3 rounds, the games
# whose tier 2 was thinnest: octal grundy auction nim-k hackenbush-tree)
# The build measured is target/release/sgcheck (`cargo build --release` first).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
shift || true
games=("$@")
if [ "${#games[@]}" -eq 0 ]; then
    games=(octal grundy auction nim-k hackenbush-tree)
fi
bin=target/release/sgcheck
# The default run's slot: 50 s over every game `verify` sweeps.
n=$("$bin" list | sed -n '/^Games/,/^$/p' | grep -c '^  [a-z]')
slot=$(awk -v n="$n" 'BEGIN { printf "%.3f", 50 / n }')
modes=(plain fast)
if [ -n "${BEFORE:-}" ]; then modes=(before plain fast); fi
tier2() { # mode game -> "checked per_wall_second per_cpu_second"
    local b="$bin"
    [ "$1" = before ] && b="$BEFORE"
    if [ "$1" = plain ]; then export SGCHECK_ORACLE_SPEEDUPS=none; else unset SGCHECK_ORACLE_SPEEDUPS; fi
    local TIMEFORMAT='%U %S'
    { time "$b" verify --game "$2" --time "$slot" --seed 1 --json --no-progress >"$work/out.json" 2>/dev/null; } 2>"$work/cpu"
    unset SGCHECK_ORACLE_SPEEDUPS
    python3 - "$work/out.json" "$work/cpu" <<'PY'
import json, sys
t = [t for g in json.load(open(sys.argv[1]))["games"] for t in g["tiers"] if t["tier"] == 2][0]
u, s = map(float, open(sys.argv[2]).read().split())
print(t["checked"], int(t["per_second"]), int(t["checked"] / max(u + s, 1e-9)))
PY
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "tier-2 positions in one game's slot of the default run ($slot s of $n games; median of $rounds rounds)"
echo
printf '| game |'; for m in "${modes[@]}"; do printf ' %s: positions | per wall s | per CPU s |' "$m"; done; echo
printf '|---|'; for _ in "${modes[@]}"; do printf -- '---:|---:|---:|'; done; echo
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for g in "${games[@]}"; do
    for _ in $(seq "$rounds"); do
        for m in "${modes[@]}"; do tier2 "$m" "$g" >>"$work/$g-$m"; done
    done
    printf '| %s |' "$g"
    for m in "${modes[@]}"; do
        printf ' %s | %s | %s |' "$(cut -d' ' -f1 "$work/$g-$m" | median)" \
            "$(cut -d' ' -f2 "$work/$g-$m" | median)" "$(cut -d' ' -f3 "$work/$g-$m" | median)"
    done
    echo
done
