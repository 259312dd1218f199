#!/usr/bin/env bash
# Mutation testing of the fast solvers, as a measure of the checker: how many wrong
# versions of the code that computes answers does `sgcheck verify` catch?
#
#   benches/mutants.sh [COUNT] [SEED]        (defaults: 36 mutants, seed 20)
#   MUTANTS_ONLY=FILE benches/mutants.sh     (the mutants named in FILE, one a line)
#
# With MUTANTS_VIABLE=N, the mutants are checked in the sample's order until N of them
# build (COUNT is then the most drawn). MUTANTS_DEPS_FROM=DIR (a release target
# directory such as target/release) copies the dependencies' compiled artifacts from
# DIR into the scratch target directory before its first build, so that only
# sgcheck-oracles and sgcheck are compiled (nothing is written to DIR).
#
# cargo-mutants (installed with `cargo install cargo-mutants --locked` when missing)
# lists every mutant of src/games/ (its subdirectories included); a seeded sample of
# COUNT is drawn from the answer-computing functions (closed forms, tables, mex,
# winning moves, period finders: not the verify subjects' instance generators, the
# fuzz targets' decoders, the audit's helpers that look for a component of a given
# value, the tier-1 checks themselves, the declarations' adapters or formatting). Each mutant is
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
# Results go to target/mutants-sample/results.tsv (MUTANTS_WORK to put them
# elsewhere); VERIFY_TIME is each check's --time (10 s). It takes one to two minutes
# per mutant on two cores; .ci/mutants runs a small sample of it in CI.
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
python3 - "$WORK/all.json" "$COUNT" "$SEED" "${MUTANTS_ONLY:-}" > "$WORK/sample.json" <<'EOF'
import json, random, re, sys
mutants = json.load(open(sys.argv[1]))
count, seed = int(sys.argv[2]), int(sys.argv[3])
if sys.argv[4]:
    # Named mutants, in the file's order (a rerun of a sample's survivors, say).
    by_name = {m["name"]: m for m in mutants}
    names = [l.strip() for l in open(sys.argv[4]) if l.strip() and not l.startswith("#")]
    missing = [n for n in names if n not in by_name]
    if missing:
        sys.exit("not among the mutants listed: " + "; ".join(missing))
    json.dump([by_name[n] for n in names], sys.stdout)
    print(f"{len(mutants)} mutants listed, {len(names)} named in {sys.argv[4]}",
          file=sys.stderr)
    sys.exit(0)
skip_files = {"src/games/declared.rs", "src/games/cases.rs"}
# Functions that do not compute answers: verify subjects, the tier-1 checks (and
# each_state, the scripted tier 1's walk over its states), the declarations' adapters
# and generators (interesting), the fuzz targets' decoders (fuzz_instance), the
# audit's search for a component of a given value (smallest_with_value,
# smallest_component), the rules text a declaration's parameters make (rules_text:
# both sides read it, so no differential check can see a wrong one), formatting and
# parsing.
skip_fn = re.compile(
    r"impl Subject|impl DeclaredRules|impl Game for|tier1|random|instances|reproduce"
    r"|verify_game|check_game|compare_solver|self_check|make_losing|rows_of_size"
    r"|shrink|fmt|from_str|Display|FromStr|double_misses|double_trap"
    r"|each_state|interesting|fuzz_instance|smallest_with_value|smallest_component"
    r"|rules_text")
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
if [ -n "${MUTANTS_DEPS_FROM:-}" ] && [ -d "$MUTANTS_DEPS_FROM/deps" ] \
    && [ ! -d "$CARGO_TARGET_DIR/release/deps" ]; then
    # Copies (never links) of every artifact but this repository's crates: the
    # dependencies are then fresh when the profile and features match.
    mkdir -p "$CARGO_TARGET_DIR/release"/{deps,build,.fingerprint}
    for d in deps build .fingerprint; do
        (cd "$MUTANTS_DEPS_FROM/$d" && find . -mindepth 1 -maxdepth 1 ! -name '*sgcheck*' \
            \( -type d -o -name '*.rlib' -o -name '*.rmeta' -o -name '*.so' -o -name '*.d' \) \
            -exec cp -rp -t "$CARGO_TARGET_DIR/release/$d" {} +)
    done
fi
# The release profile of Cargo.toml (the dependencies as CI's tests build them); this
# repository's crates without debug info, compiled incrementally: a mutant rebuilds
# only what it changed.
build_mutant() {
    cargo build --release --bin sgcheck -q \
        --config 'profile.release.package.sgcheck.debug=0' \
        --config 'profile.release.package.sgcheck.incremental=true' \
        --config 'profile.release.package.sgcheck.codegen-units=16' \
        --config 'profile.release.package.sgcheck-oracles.debug=0' "$@"
}
(cd "$TREE" && build_mutant)

# The checks of a file, one `sgcheck verify` argument list per line: the registry's id
# of its game, or the declarations that exercise a declarable-only game.
checks_of() {
    case "$1" in
        # take_break.rs computes the tables of octal codes and of Grundy's game.
        src/games/take_break.rs)
            echo "--game octal"
            echo "--game grundy" ;;
        src/games/mod.rs) echo "--game nim" ;;
        src/games/take_range.rs) echo "--game take-range" ;;
        src/games/following_nim.rs) echo "--game following-nim" ;;
        src/games/misere_nim.rs) echo "--game misere-nim" ;;
        src/games/simple_nim.rs) echo "--game simple-nim" ;;
        src/games/nim_k.rs) echo "--game nim-k" ;;
        src/games/hackenbush_tree.rs) echo "--game hackenbush-tree" ;;
        # No built-in problem plays Mock Turtles: the declaration that prints only the
        # verdict reaches its first_wins in tier 3.
        src/games/mock_turtles.rs)
            echo "--game mock-turtles"
            echo "--problem tests/data/verify/mock_turtles_verdict.toml" ;;
        # Codes whose moves take and leave up to two heaps (0.137), three heaps (8.[3]),
        # or split without taking (4.6); a listed subtraction set; a fixed range.
        src/games/heap_code/mod.rs)
            echo "--problem examples/problems/dawson.toml"
            echo "--problem tests/data/verify/three_heaps.toml"
            echo "--problem tests/data/verify/split_heaps.toml"
            echo "--problem tests/data/verify/subtract_code.toml"
            echo "--problem tests/data/verify/range_code.toml"
            echo "--problem tests/data/misere/eat_a_run.toml" ;;
        # Misère play proven to follow misère Nim (0.[7]), and two that are not: 0.77
        # fails the proof's first condition, 0.75 only its third.
        src/games/heap_code/misere.rs)
            echo "--problem tests/data/misere/eat_a_run.toml"
            echo "--problem tests/data/misere/kayles_misere.toml"
            echo "--problem tests/data/misere/third_condition.toml" ;;
        # The move language: the dense table's strided loops (cutting game, Kayles,
        # Chomp), its loops split at a min or max (keep_longer) and its general
        # evaluation (divisors, conditions).
        src/games/scripted/lang.rs)
            echo "--problem tests/data/lang/cutting_game.toml"
            echo "--problem tests/data/lang/divisor_game.toml"
            echo "--problem tests/data/lang/kayles.toml"
            echo "--problem tests/data/lang/chomp2.toml"
            echo "--problem tests/data/lang/keep_longer.toml" ;;
        src/games/heap_ranges.rs) echo "--problem examples/problems/limited_piles.toml" ;;
        # Tier 3 renders the fast side's moves and the oracle's through the same move
        # fields: only the samples' known answers check that rendering.
        src/games/dag_tokens.rs)
            echo "--problem examples/problems/tokens.toml"
            echo "--problem examples/problems/tokens_adjacency.toml"
            echo "--problem tests/data/verify/tokens_sample.toml" ;;
        src/games/paint_chain.rs) echo "--problem corpus/problems/hdu3980.toml" ;;
        # Mock Turtles as a script has a closed form value(state) (the other three
        # have none).
        src/games/scripted/*)
            echo "--problem tests/data/scripts/kayles.toml"
            echo "--problem tests/data/scripts/mock_turtles.toml"
            echo "--problem tests/data/scripts/ruler.toml"
            echo "--problem tests/data/scripts/chomp2.toml" ;;
        *) echo "--game $(basename "$1" .rs)" ;;
    esac
}

# One line per mutant: its outcome, the check that gave it, its name; the output of
# check k of mutant i (from 0, in sample.json's order) is in logs/i.k.log.
RESULTS=$WORK/results.tsv
: > "$RESULTS"
rm -rf "$WORK/logs"
mkdir -p "$WORK/logs"
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$WORK/sample.json")
for i in $(seq 0 $((n - 1))); do
    if [ -n "${MUTANTS_VIABLE:-}" ] && [ "$(grep -vc '^unviable' "$RESULTS" || true)" -ge "$MUTANTS_VIABLE" ]; then
        n=$i
        break
    fi
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
    if ! (cd "$TREE" && build_mutant 2> "$WORK/build.log"); then
        outcome=unviable
    else
        outcome=
        k=0
        while read -r -a check; do
            k=$((k + 1))
            log=$WORK/logs/$i.$k.log
            set +e
            (cd "$TREE" && timeout -k 10 $((VERIFY_TIME * 6 + 30)) "$CARGO_TARGET_DIR/release/sgcheck" \
                verify "${check[@]}" --time "$VERIFY_TIME" --seed 1 --no-progress \
                < /dev/null > "$log" 2>&1)
            code=$?
            set -e
            case $code in
                0) this=survived ;;
                1) if grep -q "panicked:" "$log"; then this=crash
                   elif grep -q "(a hang)" "$log"; then this=hang
                   else this=disagreement; fi ;;
                2) this="not checked" ;;
                124|137) this="hang!" ;;
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
            # Caught: the file's other checks cannot do better.
            [ "$(rank "$outcome")" -lt 4 ] || break
        done < <(checks_of "$file")
        # Listed equivalents match by file and mutation, whatever line they moved to.
        if [ "$outcome" = survived ] && sed -E 's/^([^:]+):[0-9]+:[0-9]+:/\1:/; s/ -- .*//' \
            benches/mutants-equivalent.txt | grep -qxF "$(printf '%s' "$name" \
            | sed -E 's/^([^:]+):[0-9]+:[0-9]+:/\1:/')"; then
            outcome="equivalent"
        fi
    fi
    cp "$WORK/original.rs" "$TREE/$file"
    printf '%s\t%s\t%s\n' "$outcome" "$game" "$name" | tee -a "$RESULTS"
done

echo
if [ -n "${MUTANTS_ONLY:-}" ]; then
    echo "== score ($n mutants named in $MUTANTS_ONLY)"
else
    echo "== score (seed $SEED, $n mutants sampled)"
fi
cut -f1 "$RESULTS" | sort | uniq -c | sort -rn
viable=$(grep -vc "^unviable" "$RESULTS" || true)
equivalent=$(grep -c "^equivalent" "$RESULTS" || true)
caught=$(grep -cE "^(disagreement|crash|hang)	" "$RESULTS" || true)
echo "caught as a disagreement (incl. reported crashes and hangs): $caught of $((viable - equivalent)) non-equivalent viable mutants"
