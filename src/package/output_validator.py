#!/usr/bin/env python3
# Output validator of problem {{ID}}, written by `sgcheck export` from {{ORIGIN}}.
#
# Called as `validate.py input answer feedback_dir [arguments] < team_output`; exit 42
# accepts the output, exit 43 rejects it (why: feedback_dir/judgemessage.txt). Of the
# arguments, `case_sensitive` is read; the others are ignored (a change of whitespace
# is always accepted).
#
# The answer file holds the expected output, token by token, except where any of
# several texts is right (any winning move): there it holds a block
#
#     @any K
#     <text 1>
#     ...
#     <text K>
#
# and the output must give one of the K texts (token by token) in its place. The
# comparison is token by token (any whitespace between tokens), and, as the format's
# default output validator compares, case-insensitive unless the argument
# `case_sensitive` is given; the texts of a block are tried in order and the first
# that matches is taken.
import sys

TAG = "@any"
# The output read at most: anything longer is wrong anyway.
MAX_OUTPUT = 64 << 20


def expected(answer):
    """The answer file's items: ("one", token) or ("any", [token lists])."""
    items = []
    lines = answer.split("\n")
    i = 0
    while i < len(lines):
        words = lines[i].split()
        if words[:1] == [TAG]:
            k = int(words[1])
            texts = [lines[i + 1 + j].split() for j in range(k)]
            items.append(("any", texts))
            i += 1 + k
        else:
            items.extend(("one", w) for w in words)
            i += 1
    return items


def shown(texts):
    head = " | ".join(" ".join(t) for t in texts[:6])
    more = " | ... (%d in all)" % len(texts) if len(texts) > 6 else ""
    return "{any of: " + head + more + "}"


def judge(items, out, case_sensitive=False):
    """None when `out` (a list of tokens) is right, else what is wrong."""
    same = (lambda a, b: a == b) if case_sensitive else (lambda a, b: a.lower() == b.lower())
    at = 0
    for kind, want in items:
        if kind == "one":
            got = out[at] if at < len(out) else None
            if got is None or not same(got, want):
                return "token %d: expected %r, got %s" % (
                    at + 1, want, "the end of the output" if got is None else repr(got))
            at += 1
            continue
        for text in want:
            given = out[at:at + len(text)]
            if len(given) == len(text) and all(same(a, b) for a, b in zip(given, text)):
                at += len(text)
                break
        else:
            width = max(1, len(want[0]) if want else 1)
            got = " ".join(out[at:at + width])
            return "token %d: expected %s, got %s" % (
                at + 1, shown(want), repr(got) if got else "the end of the output")
    if at < len(out):
        return "token %d: %r after the end of the answer" % (at + 1, out[at])
    return None


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: validate.py input answer feedback_dir < output\n")
        sys.exit(1)
    with open(sys.argv[2], "rb") as f:
        items = expected(f.read().decode("ascii"))
    raw = sys.stdin.buffer.read(MAX_OUTPUT + 1)
    if len(raw) > MAX_OUTPUT:
        why = "the output is longer than %d bytes" % MAX_OUTPUT
    else:
        try:
            out = [w.decode("ascii") for w in raw.split()]
        except UnicodeDecodeError:
            out = None
        case_sensitive = "case_sensitive" in sys.argv[4:]
        why = "the output is not ASCII text" if out is None else judge(items, out, case_sensitive)
    if why is None:
        sys.exit(42)
    try:
        with open(sys.argv[3].rstrip("/") + "/judgemessage.txt", "w") as f:
            f.write(why + "\n")
    except OSError:
        pass
    sys.stderr.write(why + "\n")
    sys.exit(43)


if __name__ == "__main__":
    main()
