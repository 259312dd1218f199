#!/usr/bin/env bash
# Declared games in the move language at their contest limits against a plain C++ table
# of the same rules, side by side in one run:
#
#   benches/move_language.sh [ROUNDS]          (default 7 rounds; SGCHECK=path/to/sgcheck)
#
# For each game (tests/data/lang/*.toml) one input at the limits is generated (fixed
# seeds), the C++ program (benches/cpp/lang_*.cpp, compiled with g++ -O2) and
# `sgcheck solve --problem` answer it ROUNDS times in alternation, the outputs are
# compared, and the median wall time of each is printed with their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
SG=${SGCHECK:-target/release/sgcheck}
[ -x "$SG" ] || cargo build --release
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK" <<'PY'
import random, sys
w = sys.argv[1]
r = random.Random(36)
with open(f"{w}/cutting.in", "w") as f:
    f.write("1000\n200 200\n")
    for _ in range(999):
        f.write(f"{r.randint(2, 200)} {r.randint(2, 200)}\n")
with open(f"{w}/divisor.in", "w") as f:
    f.write("1\n100000 " + " ".join(str(r.randint(1, 100000)) for _ in range(100000)) + "\n")
with open(f"{w}/kayles.in", "w") as f:
    f.write("1\n100000 " + " ".join(str(r.randint(0, 1000)) for _ in range(100000)) + "\n")
with open(f"{w}/chomp2.in", "w") as f:
    f.write("1000\n0 500\n")
    for _ in range(999):
        a = r.randint(1, 500)
        f.write(f"{r.randint(0, a)} {a}\n")
PY
printf '%-14s %10s %10s %7s\n' game "C++ (ms)" "sgcheck" ratio
for game in cutting divisor kayles chomp2; do
    decl=tests/data/lang/$game.toml
    [ "$game" = cutting ] && decl=tests/data/lang/cutting_game.toml
    [ "$game" = divisor ] && decl=tests/data/lang/divisor_game.toml
    g++ -O2 -o "$WORK/$game" "benches/cpp/lang_$game.cpp"
    "$WORK/$game" < "$WORK/$game.in" > "$WORK/$game.cpp.out"
    "$SG" solve --problem "$decl" < "$WORK/$game.in" > "$WORK/$game.sg.out"
    cmp -s "$WORK/$game.cpp.out" "$WORK/$game.sg.out" || { echo "$game: the answers differ"; exit 1; }
    python3 - "$WORK/$game" "$SG" "$decl" "$WORK/$game.in" "$ROUNDS" "$game" <<'PY'
import statistics, subprocess, sys, time
cpp, sg, decl, inp, rounds, game = sys.argv[1:]
data = open(inp, "rb").read()
def once(cmd):
    s = time.perf_counter()
    subprocess.run(cmd, input=data, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - s
a, b = [], []
for _ in range(int(rounds)):
    a.append(once([cpp]))
    b.append(once([sg, "solve", "--problem", decl]))
ma, mb = statistics.median(a), statistics.median(b)
print(f"{game:<14} {ma * 1000:10.1f} {mb * 1000:10.1f} {mb / ma:7.2f}")
PY
done
