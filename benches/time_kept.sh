#!/bin/sh
# How well `verify --time T` and `audit --time T` keep their budget on every
# declaration of the repository: the wall time of each run against T. The audited
# program is a right one: sgcheck's own `solve --problem` of the declaration (and a
# Python solution of Fibonacci Nim). Usage: benches/time_kept.sh [T] (default 3);
# builds first.
set -eu
T=${1:-3}
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/sgcheck
for f in examples/problems/*.toml tests/data/*/*.toml; do
    s=$(date +%s.%N)
    rc=0
    "$bin" verify --problem "$f" --time "$T" --no-progress >/dev/null 2>&1 || rc=$?
    e=$(date +%s.%N)
    # Exit 2: a declaration that does not read alone (a game an example program adds).
    [ "$rc" = 2 ] && continue
    echo "$f verify $(echo "$e - $s" | bc) s (--time $T, ratio $(echo "scale=3; ($e - $s) / $T" | bc))"
    s=$(date +%s.%N)
    verdict=$("$bin" audit --problem "$f" --time "$T" --json -- "$PWD/$bin" solve --problem "$PWD/$f" 2>/dev/null |
        sed -n 's/^  "verdict": "\(.*\)",$/\1/p')
    e=$(date +%s.%N)
    echo "$f audit $(echo "$e - $s" | bc) s (--time $T, ratio $(echo "scale=3; ($e - $s) / $T" | bc), verdict ${verdict:-none})"
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/fib.py" <<'PY'
import sys
d = sys.stdin.read().split()
fib, a, b = set(), 1, 2
while a < 2**40:
    fib.add(a); a, b = b, a + b
print("\n".join("Second" if int(n) in fib else "First" for n in d[1:1 + int(d[0])]))
PY
s=$(date +%s.%N)
"$bin" audit --problem tests/data/slow/fibonacci_nim.toml --time "$T" -- python3 "$dir/fib.py" >/dev/null 2>&1 || true
e=$(date +%s.%N)
echo "tests/data/slow/fibonacci_nim.toml audit $(echo "$e - $s" | bc) s (--time $T, ratio $(echo "scale=3; ($e - $s) / $T" | bc))"
