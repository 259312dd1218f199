#!/usr/bin/env bash
# Mutation testing of the fast solvers, as a measure of the checker: how many wrong
# versions of the code that computes answers does `sgcheck verify` catch?
#
#   benches/mutants.sh [COUNT] [SEED]        (defaults: 36 mutants, seed 20)
#
# cargo-mutants (installed with `cargo install cargo-mutants --locked` when missing)
# lists every mutant of src/games/ (its subdirectories included); a seeded sample of
# COUNT is drawn from the answer-computing functions (closed forms, tables, mex,
# winning moves, period finders: not the verify subjects' instance generators, the
# tier-1 checks themselves, the declarations' adapters or formatting). Each mutant is
# applied to a scratch copy of the tree (its own target directory: the working tree is
# never touched), the binary is rebuilt, and the checks of its file are the test:
# `sgcheck verify --game <id>` for a game of the registry, `sgcheck verify --problem
# <declaration>` for each declaration that exercises a declarable-only game (heap
# codes, ranges, graphs, scripts, paint chain; `checks_of` below). A mutant is caught
# when one of its checks reports a disagreement. Outcomes:
#
#   disagreement  verify exit 1 with a disagreement (the goal)
#   crash         verify exit 1 reporting a panic of the fast solver as a disagreement
#   hang          verify exit 1 reporting a check that did not return
#   crash!/hang!  an unreported crash (exit 101 ...) or a run killed by the timeout
#   not checked   verify exit 2 (a tier compared nothing)
#   survived      verify exit 0: the mutant went unnoticed
#   unviable      the mutant does not build (not counted)
#
# A survivor listed in benches/mutants-equivalent.txt (with the reason it cannot change
# any answer) is reported as equivalent; any other survivor is a gap of the checker.
# Results go to target/mutants-sample/results.tsv. It takes about a minute per mutant
# on two cores: run it by hand, not on every push.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-36}
SEED=${2:-20}
VERIFY_TIME=${VERIFY_TIME:-10}
ROOT=$PWD
WORK=${MUTANTS_WORK:-$ROOT/target/mutants-sample}
command -v cargo-mutants >/dev/null || cargo install cargo-mutants --locked

mkdir -p "$WORK"
cargo mutants --list --json -f 'src/games/**/*.rs' > "$WORK/all.json"
python3 - "$WORK/all.json" "$COUNT" "$SEED" > "$WORK/sample.json" <<'EOF'
import json, random, re, sys
mutants = json.load(open(sys.argv[1]))
count, seed = int(sys.argv[2]), int(sys.argv[3])
skip_files = {"src/games/declared.rs", "src/games/cases.rs"}
# Functions that do not compute answers: verify subjects, the tier-1 checks, the
# declarations' adapters and generators, formatting and parsing.
skip_fn = re.compile(
    r"impl Subject|impl DeclaredRules|impl Game for|tier1|random|instances|reproduce"
    r"|verify_game|check_game|compare_solver|self_check|make_losing|rows_of_size"
    r"|shrink|fmt|from_str|Display|FromStr|double_misses|double_trap")
keep = [m for m in mutants
        if m["file"] not in skip_files and m.get("function")
        and not skip_fn.search(m["function"]["function_name"])]
random.Random(seed).shuffle(keep)
json.dump(keep[:count], sys.stdout)
print(f"{len(mutants)} mutants listed, {len(keep)} in answer-computing code, "
      f"{min(count, len(keep))} sampled (seed {seed})", file=sys.stderr)
EOF

# The scratch tree: a copy of the sources, built once, then rebuilt per mutant.
TREE=$WORK/tree
rm -rf "$TREE"
mkdir -p "$TREE"
tar -C "$ROOT" --exclude=./target --exclude=./.git --exclude=./fuzz -cf - . | tar -C "$TREE" -xf -
export CARGO_TARGET_DIR=$WORK/target
export CARGO_PROFILE_RELEASE_DEBUG=0
export CARGO_PROFILE_RELEASE_INCREMENTAL=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
(cd "$TREE" && cargo build --release --bin sgcheck -q)

# The checks of a file, one `sgcheck verify` argument list per line: the registry's id
# of its game, or the declarations that exercise a declarable-only game.
checks_of() {
    case "$1" in
        src/games/take_break.rs) echo "--game octal" ;;
        src/games/mod.rs) echo "--game nim" ;;
        src/games/take_range.rs) echo "--game take-range" ;;
        src/games/following_nim.rs) echo "--game following-nim" ;;
        src/games/misere_nim.rs) echo "--game misere-nim" ;;
        src/games/simple_nim.rs) echo "--game simple-nim" ;;
        src/games/nim_k.rs) echo "--game nim-k" ;;
        src/games/hackenbush_tree.rs) echo "--game hackenbush-tree" ;;
        src/games/mock_turtles.rs) echo "--game mock-turtles" ;;
        src/games/heap_code.rs)
            echo "--problem examples/problems/dawson.toml"
            echo "--problem tests/data/verify/three_heaps.toml" ;;
        src/games/heap_ranges.rs) echo "--problem examples/problems/limited_piles.toml" ;;
        src/games/dag_tokens.rs)
            echo "--problem examples/problems/tokens.toml"
            echo "--problem examples/problems/tokens_adjacency.toml" ;;
        src/games/paint_chain.rs) echo "--problem corpus/problems/hdu3980.toml" ;;
        src/games/scripted/*)
            echo "--problem tests/data/scripts/kayles.toml"
            echo "--problem tests/data/scripts/ruler.toml"
            echo "--problem tests/data/scripts/chomp2.toml" ;;
        *) echo "--game $(basename "$1" .rs)" ;;
    esac
}

RESULTS=$WORK/results.tsv
: > "$RESULTS"
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$WORK/sample.json")
for i in $(seq 0 $((n - 1))); do
    file=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[int(sys.argv[2])]['file'])" "$WORK/sample.json" "$i")
    name=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[int(sys.argv[2])]['name'])" "$WORK/sample.json" "$i")
    cp "$TREE/$file" "$WORK/original.rs"
    # Apply the mutant: replace its span (1-based lines and columns, end exclusive).
    python3 - "$WORK/sample.json" "$i" "$TREE/$file" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))[int(sys.argv[2])]
path = sys.argv[3]
lines = open(path).read().split("\n")
s, e = m["span"]["start"], m["span"]["end"]
def offset(line, col):
    return sum(len(l) + 1 for l in lines[: line - 1]) + col - 1
text = "\n".join(lines)
a, b = offset(s["line"], s["column"]), offset(e["line"], e["column"])
open(path, "w").write(text[:a] + m["replacement"] + text[b:])
EOF
    game=$(checks_of "$file" | head -1)
    if ! (cd "$TREE" && cargo build --release --bin sgcheck -q 2> "$WORK/build.log"); then
        outcome=unviable
    else
        outcome=
        while read -r -a check; do
            set +e
            (cd "$TREE" && timeout $((VERIFY_TIME * 6 + 30)) "$CARGO_TARGET_DIR/release/sgcheck" \
                verify "${check[@]}" --time "$VERIFY_TIME" --seed 1 --no-progress \
                > "$WORK/verify.log" 2>&1)
            code=$?
            set -e
            case $code in
                0) this=survived ;;
                1) if grep -q "panicked:" "$WORK/verify.log"; then this=crash
                   elif grep -q "(a hang)" "$WORK/verify.log"; then this=hang
                   else this=disagreement; fi ;;
                2) this="not checked" ;;
                124) this="hang!" ;;
                *) this="crash!" ;;
            esac
            # The strongest outcome of the file's checks: caught beats unreported
            # beats not checked beats survived.
            rank() { case $1 in disagreement|crash|hang) echo 4 ;; "crash!"|"hang!") echo 3 ;;
                     "not checked") echo 1 ;; *) echo 0 ;; esac; }
            if [ -z "$outcome" ] || [ "$(rank "$this")" -gt "$(rank "$outcome")" ]; then
                outcome=$this
                game="${check[*]}"
            fi
        done < <(checks_of "$file")
        if [ "$outcome" = survived ] && grep -qF "$name" benches/mutants-equivalent.txt; then
            outcome="equivalent"
        fi
    fi
    cp "$WORK/original.rs" "$TREE/$file"
    printf '%s\t%s\t%s\n' "$outcome" "$game" "$name" | tee -a "$RESULTS"
done

echo
echo "== score (seed $SEED, $n mutants sampled)"
cut -f1 "$RESULTS" | sort | uniq -c | sort -rn
viable=$(grep -vc "^unviable" "$RESULTS" || true)
equivalent=$(grep -c "^equivalent" "$RESULTS" || true)
caught=$(grep -cE "^(disagreement|crash|hang)	" "$RESULTS" || true)
echo "caught as a disagreement (incl. reported crashes and hangs): $caught of $((viable - equivalent)) non-equivalent viable mutants"
