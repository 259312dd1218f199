#!/bin/bash -eu
# Builds every cargo-fuzz target of sgcheck into $OUT, the ClusterFuzzLite / OSS-Fuzz
# way: the source is in $SRC/sgcheck, binaries, seed corpora (<target>_seed_corpus.zip)
# and options go to $OUT. Inside their image the cargo wrapper chooses the sanitizer
# from $SANITIZER; SANITIZER=none builds without one on a stable toolchain (how CI runs
# this script outside docker).
cd "$SRC/sgcheck"

args=(-O)
if [ "${SANITIZER:-}" = "none" ]; then
    args+=(--sanitizer none)
fi
cargo fuzz build "${args[@]}"

host="$(rustc -vV | sed -n 's/^host: //p')"
bin_dir="${CARGO_TARGET_DIR:-fuzz/target}/$host/release"
for target in $(cargo fuzz list); do
    cp "$bin_dir/$target" "$OUT/$target"
    # Seeds and committed regressions, as the seed corpus.
    seeds=()
    for dir in corpus/fuzz/$target corpus/regressions/$target; do
        if [ -d "$dir" ]; then
            while IFS= read -r -d '' f; do seeds+=("$f"); done < <(find "$dir" -type f -print0)
        fi
    done
    if [ "${#seeds[@]}" -gt 0 ]; then
        rm -f "$OUT/${target}_seed_corpus.zip"
        zip -q -j "$OUT/${target}_seed_corpus.zip" "${seeds[@]}"
    fi
    # Inputs are small structured values: a short max_len keeps libFuzzer on them.
    printf '[libfuzzer]\nmax_len = 4096\n' > "$OUT/$target.options"
done
