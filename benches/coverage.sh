#!/usr/bin/env bash
# Coverage of the fast solvers by `sgcheck verify`: which functions of src/games/ (its
# subdirectories included) do verify's tiers reach, and which does no tier reach?
#
#   benches/coverage.sh                      (run from anywhere in the repository)
#
# It builds the sgcheck binary instrumented for LLVM's source-based coverage
# (cargo-llvm-cov, installed with `cargo install cargo-llvm-cov --locked` when missing;
# its llvm-cov and llvm-profdata come from rustup's llvm-tools component, or without
# rustup from an LLVM of rustc's major version, e.g. Debian's llvm-NN, or from LLVM_COV
# and LLVM_PROFDATA), from a copy of the working tree, then runs
#
#   sgcheck verify --seed SEED --time VERIFY_TIME                     (every game)
#   sgcheck verify --problem FILE --seed SEED --time PROBLEM_TIME
#
# the second for each declaration in examples/problems/ and tests/data/*/: they reach
# what only a declaration reaches (heap codes, ranges, graphs, scripts, misère play,
# rules from each case, the winning moves of a built-in game in a problem). Some of them
# plant a wrong answer on purpose (verify exits 1), and examples/problems/prime_take.toml
# names the game of the example program own_game_cli, unknown to sgcheck (exit 2); every
# exit code is in the report. A run that cut a game's tier 1 short at its time share, or
# reported it as a hang, runs again for that game (or declaration) with `--time
# RERUN_TIME --max-size 8 --random-batches 1`: instrumented code is slower (lasker's
# tier 1, whose vectorized scan the counters break, takes 20 to 40 times as long), while
# the uninstrumented default run completes every tier 1.
#
# The profiles of all the runs are merged and the report lists, per file of src/games/,
# the functions and closures reached (a generic function counts as reached when any of
# its instances ran), and every function with zero executions, each with the reason
# given in benches/coverage-unreached.txt (`path: name -- why`, shell patterns allowed)
# or NOT TRIAGED. Outputs in COVERAGE_OUT:
#
#   unreached.txt            totals, per file, the unreached functions with their reason
#   unreached-closures.txt   the closures never called (inside reached functions too)
#   coverage.json            llvm-cov's export of the merged profile (the whole crate)
#   runs.txt, logs/          each verify run: exit code, wall seconds, arguments; output
#
# Environment: VERIFY_TIME (default 50: verify's default), RERUN_TIME (default 120, a
# bound: those runs end when their work is done), PROBLEM_TIME (default 5), SEED
# (default 1), COVERAGE_TARGET_DIR (default target/llvm-cov), COVERAGE_OUT (default
# target/coverage). Exit code 1 when an unreached function is not triaged.
#
# On two cores the build takes about 5 minutes from scratch and the runs about 5 (more
# with more declarations and reruns). It is a bench run by hand, not part of CI
# (.ci/run does not call it).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VERIFY_TIME=${VERIFY_TIME:-50}
PROBLEM_TIME=${PROBLEM_TIME:-5}
RERUN_TIME=${RERUN_TIME:-120}
SEED=${SEED:-1}
export CARGO_TARGET_DIR=${COVERAGE_TARGET_DIR:-$ROOT/target/llvm-cov}
OUT=${COVERAGE_OUT:-$ROOT/target/coverage}
export CARGO_TERM_COLOR=never

if ! command -v cargo-llvm-cov >/dev/null; then
    echo "== installing cargo-llvm-cov"
    cargo install cargo-llvm-cov --locked
fi

# llvm-cov and llvm-profdata must read the profiles of rustc's own LLVM.
llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
if [ -n "${LLVM_COV:-}" ] && [ -n "${LLVM_PROFDATA:-}" ]; then
    echo "== llvm tools from LLVM_COV=$LLVM_COV and LLVM_PROFDATA=$LLVM_PROFDATA"
elif command -v rustup >/dev/null; then
    rustup component list --installed | grep '^llvm-tools' >/dev/null \
        || rustup component add llvm-tools-preview
else
    found=
    for dir in "/usr/lib/llvm-$llvm_major/bin" "/usr/local/opt/llvm@$llvm_major/bin"; do
        if [ -x "$dir/llvm-cov" ] && [ -x "$dir/llvm-profdata" ]; then
            found=$dir
            break
        fi
    done
    if [ -z "$found" ] && command -v "llvm-cov-$llvm_major" >/dev/null \
        && command -v "llvm-profdata-$llvm_major" >/dev/null; then
        export LLVM_COV=$(command -v "llvm-cov-$llvm_major")
        export LLVM_PROFDATA=$(command -v "llvm-profdata-$llvm_major")
    elif [ -n "$found" ]; then
        export LLVM_COV=$found/llvm-cov LLVM_PROFDATA=$found/llvm-profdata
    else
        echo "coverage.sh: rustup is missing, and so is an LLVM $llvm_major (rustc's) with" >&2
        echo "llvm-cov and llvm-profdata. Install one (Debian: apt-get install llvm-$llvm_major)," >&2
        echo "or set LLVM_COV and LLVM_PROFDATA to tools of LLVM $llvm_major." >&2
        exit 2
    fi
    echo "== llvm tools without rustup: $LLVM_COV, $LLVM_PROFDATA"
fi

# Build and run a snapshot of the working tree, so that edits made while the bench runs
# neither rebuild the binary between runs nor shift the lines the report names.
TREE=$CARGO_TARGET_DIR/tree
rm -rf "$TREE" "$OUT"
mkdir -p "$TREE" "$OUT/logs"
tar -C "$ROOT" --exclude=target --exclude=./.git --exclude=./fuzz -cf - . | tar -C "$TREE" -xf -
cd "$TREE"
echo "== instrumented build (target: $CARGO_TARGET_DIR)"
# shellcheck disable=SC1090
source <(cargo llvm-cov show-env --export-prefix 2>/dev/null)
find "$CARGO_TARGET_DIR" -maxdepth 1 \( -name '*.profraw' -o -name '*.profdata' \) -delete
nice -n 10 cargo build --release --bin sgcheck
SGCHECK=$CARGO_TARGET_DIR/release/sgcheck

RUNS=$OUT/runs.txt
printf 'exit\tseconds\targuments\n' > "$RUNS"
run_verify() {
    local log=$1
    shift
    local start tenths rc=0
    start=$(date +%s%N)
    nice -n 10 "$SGCHECK" verify --no-progress --seed "$SEED" "$@" > "$OUT/logs/$log.txt" 2>&1 || rc=$?
    tenths=$(( ($(date +%s%N) - start) / 100000000 ))
    printf '%s\t%d.%d\tverify %s\n' "$rc" $((tenths / 10)) $((tenths % 10)) "$*" | tee -a "$RUNS"
}

# The games of a run's log whose tier 1 was cut short at its time share or reported as
# a hang (instrumented code is slower than the default run, which completes them).
cut_short() {
    awk '/^[a-z][a-z0-9-]* +1 .*stopped at the time budget/ { print $1 }
         /^DISAGREEMENT in [^ ]+ tier 1:/ { game = $3; next }
         /\(a hang\)/ && game != "" { print game; game = "" }' "$OUT/logs/$1.txt" | sort -u
}
# Such a run is repeated with a budget its tier 1 fits in, bounded by work instead: the
# tiers 2 and 3 stop after size 8 and one random batch.
BY_WORK=(--time "$RERUN_TIME" --max-size 8 --random-batches 1)

echo "== verify, every game, --time $VERIFY_TIME"
run_verify all-games --time "$VERIFY_TIME"
for game in $(cut_short all-games); do
    echo "== verify --game $game (its tier 1 was cut short above)"
    run_verify "game-$game" --game "$game" "${BY_WORK[@]}"
done
echo "== verify --problem, --time $PROBLEM_TIME each"
for file in examples/problems/*.toml tests/data/*/*.toml; do
    log=$(echo "${file%.toml}" | tr / _)
    run_verify "$log" --problem "$file" --time "$PROBLEM_TIME"
    if [ -n "$(cut_short "$log")" ]; then
        echo "== verify --problem $file (its tier 1 was cut short above)"
        run_verify "$log-by-work" --problem "$file" "${BY_WORK[@]}"
    fi
done

echo "== report"
cargo llvm-cov report --release --json --output-path "$OUT/coverage.json"
status=0
python3 - "$OUT/coverage.json" "$TREE" "$RUNS" "$TREE/benches/coverage-unreached.txt" "$OUT" <<'EOF' || status=$?
import fnmatch, json, os, re, sys
from collections import defaultdict

export, tree, runs, triage_file, out = sys.argv[1:6]
games = os.path.join(tree, "src", "games") + os.sep

FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")
HOLDER = re.compile(r"^(\s*)(?:pub(?:\([a-z]+\))?\s+)?(?:unsafe\s+)?((?:impl|trait)\b.*|macro_rules!\s*\w+)")

def source_lines(path, cache={}):
    if path not in cache:
        cache[path] = open(path, encoding="utf-8").read().split("\n")
    return cache[path]

def source_name(path, line):
    """`name` for a free function, `name (impl Trait for Type)` for a method, read from
    the source: the `fn` on the function's first line and the `impl`, `trait` or
    `macro_rules!` that holds it (the nearest line above, indented less)."""
    lines = source_lines(path)
    text = lines[line - 1]
    m = FN.search(text)
    if not m:
        return None
    indent = len(text) - len(text.lstrip())
    for back in range(line - 2, -1, -1):
        above = lines[back]
        if not above.strip() or len(above) - len(above.lstrip()) >= indent:
            continue
        h = HOLDER.match(above)
        if h:
            holder = re.sub(r"\s*(\{|where\b).*$", "", h.group(2)).strip()
            holder = re.sub(r"\s+", " ", holder)
            holder = re.sub(r"^(trait \w+):.*$", r"\1", holder)  # no supertraits
            holder = re.sub(r"\b(?:[a-z_][a-z0-9_]*::)+", "", holder)  # no module paths
            return f"{m.group(1)} ({holder})"
        if len(above) - len(above.lstrip()) == 0:
            break
    return m.group(1)

# One entry per place in the source (the file and the start of the function's first
# region): the instances of a generic function share it, and it is reached when any of
# them ran.
places = {}
records = []
for data in json.load(open(export))["data"]:
    for f in data["functions"]:
        path = f["filenames"][0]
        regions = [r for r in f["regions"] if r[5] == 0]
        if not path.startswith(games) or not regions:
            continue
        records.append((f, path, regions))
FN_START = re.compile(r"(?:pub(?:\([a-z]+\))?\s+)?(?:(?:const|async|unsafe|extern)\s+)*fn\b")

def enclosing(path, line):
    """The function a closure at `line` is in: the nearest `fn` above it."""
    lines = source_lines(path)
    for back in range(line, 0, -1):
        if FN.search(lines[back - 1]):
            return source_name(path, back)
    return None
for f, path, regions in records:
    start = min((r[0], r[1]) for r in regions)
    end = max(r[2] for r in regions)
    key = (os.path.relpath(path, tree), start)
    # A function's first region starts at its `fn`; anything else is a closure.
    closure = not FN_START.match(source_lines(path)[start[0] - 1][start[1] - 1:])
    entry = places.get(key)
    if entry is None:
        if closure:
            shown = "closure in " + (enclosing(path, start[0]) or "?")
        else:
            shown = source_name(path, start[0]) or f["name"]
        entry = places[key] = {"count": 0, "end": end, "name": shown, "closure": closure}
    entry["count"] += f["count"]
    entry["end"] = max(entry["end"], end)

# The triage: `path: name -- why`, shell patterns allowed in both.
triage = []
for line in (open(triage_file, encoding="utf-8") if os.path.exists(triage_file) else []):
    line = line.rstrip("\n")
    if not line.strip() or line.startswith("#"):
        continue
    where, _, why = line.partition(" -- ")
    path, _, name = where.partition(": ")
    triage.append((path.strip(), name.strip(), why.strip(), [0]))

def why_unreached(path, name):
    for p, n, why, used in triage:
        if fnmatch.fnmatchcase(path, p) and fnmatch.fnmatchcase(name, n):
            used[0] += 1
            return why
    return None

files = defaultdict(lambda: {"fn": [0, 0], "closure": [0, 0]})
unreached_fns, unreached_closures = [], []
fn_reached = {}
for (path, start), e in sorted(places.items()):
    kind = "closure" if e["closure"] else "fn"
    files[path][kind][0] += 1
    if e["count"] > 0:
        files[path][kind][1] += 1
    elif kind == "fn":
        unreached_fns.append((path, start[0], e["end"], e["name"]))
    else:
        unreached_closures.append((path, start[0], e["end"], e["name"]))

total = {k: [sum(v[k][i] for v in files.values()) for i in (0, 1)] for k in ("fn", "closure")}
untriaged = []
report = []
p = report.append
p("Coverage of the fast solvers (src/games/) by sgcheck verify")
p("")
p("runs (exit code, wall seconds, arguments):")
for line in open(runs).read().split("\n")[1:]:
    if line:
        p("  " + line.replace("\t", "  "))
p("")
p(f"functions: {total['fn'][0]} in all, {total['fn'][1]} reached, "
  f"{total['fn'][0] - total['fn'][1]} unreached")
p(f"closures:  {total['closure'][0]} in all, {total['closure'][1]} reached, "
  f"{total['closure'][0] - total['closure'][1]} unreached (listed in unreached-closures.txt)")
p("")
p(f"{'file':34} {'functions':>9} {'reached':>8} {'closures':>9} {'reached':>8}")
for path in sorted(files):
    v = files[path]
    p(f"{path:34} {v['fn'][0]:9} {v['fn'][1]:8} {v['closure'][0]:9} {v['closure'][1]:8}")
p("")
p(f"unreached functions ({len(unreached_fns)}), each with why:")
for path, line, end, name in unreached_fns:
    why = why_unreached(path, name)
    if why is None:
        untriaged.append(f"{path}: {name}")
        why = "NOT TRIAGED"
    p(f"  {path}:{line}-{end}  {name}")
    p(f"      {why}")
stale = [f"{t[0]}: {t[1]}" for t in triage if t[3][0] == 0]
if stale:
    p("")
    p(f"triage lines that match no unreached function ({len(stale)}):")
    for s in stale:
        p(f"  {s}")
p("")
if untriaged:
    p(f"{len(untriaged)} unreached function(s) not triaged in {os.path.basename(triage_file)}:")
    for u in untriaged:
        p(f"  {u}")
else:
    p(f"every unreached function is triaged in {os.path.basename(triage_file)}")
open(os.path.join(out, "unreached.txt"), "w").write("\n".join(report) + "\n")
with open(os.path.join(out, "unreached-closures.txt"), "w") as f:
    for path, line, end, name in unreached_closures:
        f.write(f"{path}:{line}-{end}  {name}\n")
print("\n".join(report))
sys.exit(1 if untriaged else 0)
EOF
echo "report: $OUT/unreached.txt"
exit $status
