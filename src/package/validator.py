#!/usr/bin/env python3
# Input validator of problem {{ID}}, written by `sgcheck export` from the declaration
# {{ORIGIN}}; standalone (Python 3, standard library only).
#
# Called as `validate.py [arguments] < testcase.in`, as the ICPC problem package format
# says: exit code 42 when the input is valid, 43 when it is not (the reason on standard
# error). Arguments are ignored. The package's answer validator is the same script
# with ANSWER_MODE set, called as `validate.py testcase.in < testcase.ans`.
#
# Valid means: every number, length and count within the declaration's bounds (per
# column of a record when declared so), its constraints (multiple_of, distinct,
# at_least, trees on 1..n, graphs without a cycle, as edges or adjacency lists, lists
# and groups ended by their terminator, vertices numbered from 0 or 1), the game's own
# rules,
# and the canonical layout exactly: numbers in decimal without leading zeros or signs,
# one space between the numbers of a line, each line ended by a newline, no other
# whitespace, nothing after the last case. A test read until end of input holds at
# least one case.
import json
import re
import sys

SPEC = json.loads(r"""{{SPEC}}""")
FIELDS = SPEC["fields"]
ANSWER_MODE = {{ANSWER_MODE}}
DIGITS = re.compile(rb"[0-9]+")


class Invalid(Exception):
    pass


def fail(msg):
    raise Invalid(msg)


class Reader:
    def __init__(self, data):
        self.toks = data.split()
        self.i = 0

    def at_end(self):
        return self.i >= len(self.toks)

    def number(self, what, lo, hi):
        if self.i >= len(self.toks):
            fail("%s: the input ended early" % what)
        t = self.toks[self.i]
        self.i += 1
        if not DIGITS.fullmatch(t):
            fail("%s: expected a number, found %r" % (what, t[:32].decode("latin-1")))
        if len(t) > 24:
            fail("%s: %s... is far out of %d..=%d" % (what, t[:24].decode(), lo, hi))
        v = int(t)
        if not lo <= v <= hi:
            fail("%s: expected %d..=%d, found %d" % (what, lo, hi, v))
        return v


def written(r, what, lo, hi, shift):
    # A value whose bounds lo..hi hold it `shift` higher than it is written (vertices
    # numbered from 0): read and checked as written, returned as held.
    return r.number(what, lo - shift, hi - shift) + shift


def read_adjacency(r, f, what, vals):
    # A line `k w1 .. wk` per vertex: its successors, distinct, in 1..n.
    n = vals[f["graph"]][0]
    if n > len(r.toks) - r.i:
        fail("%s: the input ended early (%d vertices announced)" % (what, n))
    v = []
    s = f["shift"]
    for u in range(1, n + 1):
        k = r.number("%s, vertex %d: successor count" % (what, u - s), 0, max(n - 1, 0))
        if len(v) + 2 * k > f["len_max"]:
            fail("%s, vertex %d: more than %d edges in all" % (what, u - s, f["len_max"] // 2))
        if k > len(r.toks) - r.i:
            fail("%s, vertex %d: the input ended early" % (what, u - s))
        line = [
            written(r, "%s, vertex %d, successor %d" % (what, u - s, j + 1), 1, n, s)
            for j in range(k)
        ]
        if len(set(line)) != len(line):
            fail("%s, vertex %d: a successor repeats" % (what, u - s))
        for w in line:
            v += [u, w]
    check_dag(n, v, what)
    return v


def read_until(r, f, what, lo, hi):
    # Values until the terminator (not a value itself).
    end = f["until"]
    v = []
    while True:
        if r.at_end():
            fail("%s: the input ended before the terminator %d" % (what, end))
        x = r.number("%s, value %d" % (what, len(v) + 1), 0, 2**64 - 1)
        if x == end:
            break
        if not lo <= x <= hi:
            fail("%s, value %d: expected %d..=%d, found %d" % (what, len(v) + 1, lo, hi, x))
        if len(v) >= f["len_max"]:
            fail("%s: more than %d values before the terminator" % (what, f["len_max"]))
        v.append(x)
    if len(v) < f["len_min"]:
        fail("%s: %d values, at least %d expected" % (what, len(v), f["len_min"]))
    if len(v) % f["step"] != 0:
        fail("%s: %d values, not a multiple of %d" % (what, len(v), f["step"]))
    return v


REQUIRE_OPS = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def read_list(r, f, what, vals=None):
    k = f["record"]
    if f["adjacency"]:
        return read_adjacency(r, f, what, vals)
    lo, hi = f["min"], f["max"]
    bound = f["graph"] if f["graph"] is not None else f["max_from"]
    if bound is not None:
        hi = min(hi, vals[bound][0])
    if f["until"] is not None:
        v = read_until(r, f, what, lo, hi)
    else:
        if f["len_from"] is not None:
            n = vals[f["len_from"]][0] * k
        else:
            n = r.number("length of %s" % what, f["len_min"] // k, f["len_max"] // k) * k
        if n % f["step"] != 0:
            fail("length of %s: %d is not a multiple of %d" % (what, n // k, f["step"] // k))
        if n > len(r.toks) - r.i:
            fail("%s: the input ended early (%d values announced)" % (what, n))
        cmin = f["column_min"] or [lo] * k
        cmax = f["column_max"] or [hi] * k
        v = [
            written(r, "%s, value %d" % (what, i + 1), cmin[i % k], min(cmax[i % k], hi), f["shift"])
            for i in range(n)
        ]
    for item in range(0, len(v) if f["require"] else 0, k):
        rec = v[item:item + k]
        for left, op, right, text in f["require"]:
            a = rec[left["column"]] if "column" in left else left["value"]
            b = rec[right["column"]] if "column" in right else right["value"]
            if not REQUIRE_OPS[op](a, b):
                fail("%s, item %d: %s does not hold" % (what, item // k + 1, text))
    if f["distinct"] and len(set(v)) != len(v):
        seen = set()
        for x in v:
            if x in seen:
                fail("%s: %d repeats" % (what, x))
            seen.add(x)
    if f["graph"] is not None:
        check_dag(vals[f["graph"]][0], v, what)
    return v


def check_dag(n, flat, what):
    succ = [[] for _ in range(n + 1)]
    indeg = [0] * (n + 1)
    for i in range(0, len(flat), 2):
        succ[flat[i]].append(flat[i + 1])
        indeg[flat[i + 1]] += 1
    ready = [u for u in range(1, n + 1) if indeg[u] == 0]
    done = 0
    while ready:
        u = ready.pop()
        done += 1
        for w in succ[u]:
            indeg[w] -= 1
            if indeg[w] == 0:
                ready.append(w)
    if done != n:
        fail("%s: the edges make a cycle" % what)


def check_tree(n, flat, what):
    parent = list(range(n + 1))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i in range(0, len(flat), 2):
        u, v = flat[i], flat[i + 1]
        if u == v:
            fail("%s, edge %d: a loop %d %d" % (what, i // 2 + 1, u, v))
        a, b = find(u), find(v)
        if a == b:
            fail("%s, edge %d: %d %d closes a cycle" % (what, i // 2 + 1, u, v))
        parent[a] = b


def read_group_until(r, f, what, vals):
    # Items until the terminator where an item's length would stand (no count).
    end = str(f["group_until"]).encode()
    items = []
    while True:
        if r.at_end():
            fail("%s: the input ended before the terminator %s" % (what, end.decode()))
        if r.toks[r.i] == end:
            r.i += 1
            break
        if len(items) >= f["group_max"]:
            fail("%s: more than %d items before the terminator" % (what, f["group_max"]))
        items.append(read_list(r, f, "%s, item %d" % (what, len(items) + 1), vals))
    if len(items) < f["group_min"]:
        fail("%s: %d items, at least %d expected" % (what, len(items), f["group_min"]))
    return items


def read_case(r, c):
    vals = []
    for k, f in enumerate(FIELDS):
        what = "%s of case %d" % (f["name"], c)
        kind = f["kind"]
        if kind == "number":
            hi = f["max"] if f["max_from"] is None else min(f["max"], vals[f["max_from"]][0])
            vals.append([written(r, what, f["min"], hi, f["shift"])])
        elif kind == "list":
            vals.append(read_list(r, f, what, vals))
        elif kind == "tree":
            n = r.number("vertex count of " + what, f["len_min"], f["len_max"])
            if 2 * (n - 1) > len(r.toks) - r.i:
                fail("%s: the input ended early (%d vertices announced)" % (what, n))
            flat = [r.number("%s, edge %d" % (what, i // 2 + 1), 1, n) for i in range(2 * (n - 1))]
            check_tree(n, flat, what)
            vals.append(flat)
        elif f["group_until"] is not None:
            vals.append(read_group_until(r, f, what, vals))
        else:
            m = r.number("count of " + what, f["group_min"], f["group_max"])
            if m > len(r.toks) - r.i:
                fail("%s: the input ended early (%d items announced)" % (what, m))
            vals.append([read_list(r, f, "%s, item %d" % (what, j + 1), vals) for j in range(m)])
        j = f.get("at_least")
        if j is not None and vals[k][0] < vals[j][0]:
            fail("%s = %d is below %s = %d" % (what, vals[k][0], FIELDS[j]["name"], vals[j][0]))
    return vals


def param(vals, name):
    p = SPEC["rules"].get(name)
    if p is None:
        return None
    if "field" in p:
        v = vals[p["field"]]
        return v[0] if FIELDS[p["field"]]["kind"] == "number" else v
    for key in ("number", "list", "name"):
        if key in p:
            return p[key]
    return None


def check_game(vals, pos, c):
    g = SPEC["game"]
    L = SPEC["limits"]
    where = "case %d" % c
    if g == "bash":
        if param(vals, "m") < 1:
            fail("%s: m must be at least 1" % where)
    elif g == "take-range":
        p, q = param(vals, "p"), param(vals, "q")
        if not 1 <= p <= q:
            fail("%s: the rules need 1 <= p <= q, found p = %d, q = %d" % (where, p, q))
        if len(pos) != 1:
            fail("%s: the position is one number" % where)
    elif g == "ed":
        if len(pos) % 2:
            fail("%s: E&D piles come in pairs" % where)
        if 0 in pos:
            fail("%s: E&D piles hold at least one stone" % where)
    elif g == "staircase":
        if 0 in pos:
            fail("%s: cells are numbered from 1" % where)
        if len(set(pos)) != len(pos):
            fail("%s: two pieces on one cell" % where)
    elif g == "paint-chain":
        m = param(vals, "m")
        if not 1 <= m <= L["paint_chain_max_m"]:
            fail("%s: m must be in 1..=%d" % (where, L["paint_chain_max_m"]))
        if len(pos) != 1 or pos[0] < 1:
            fail("%s: a circle has at least one bead" % where)
    elif g == "following-nim":
        s = param(vals, "specials")
        if isinstance(s, list) and 0 in s:
            fail("%s: special amounts are at least 1" % where)
        if any(v > L["following_nim_max_pile"] for v in pos):
            fail("%s: a pile is above %d" % (where, L["following_nim_max_pile"]))
    elif g == "subtraction":
        s = param(vals, "set")
        if s == "fibonacci" and any(v > L["fibonacci_max_pile"] for v in pos):
            fail("%s: a pile is above %d" % (where, L["fibonacci_max_pile"]))
        if isinstance(s, list) and (not s or 0 in s):
            fail("%s: the set holds amounts of at least 1" % where)
    elif g == "wythoff":
        if len(pos) != 2:
            fail("%s: the position is two piles" % where)
    elif g == "auction":
        n = param(vals, "n")
        if not 1 <= n <= L["auction_max_bid"]:
            fail("%s: the largest bid must be in 1..=%d" % (where, L["auction_max_bid"]))
        if len(pos) != 1:
            fail("%s: the position is one number" % where)
    elif g == "hackenbush-tree":
        if len(pos) // 2 + 1 > L["hackenbush_max_vertices"]:
            fail("%s: more than %d vertices" % (where, L["hackenbush_max_vertices"]))


def write_list(out, f, v, line_open=False, vals=None):
    k = f["record"]
    # As written: vertices numbered from 0 one lower than held.
    held, v = v, [x - f["shift"] for x in v]
    if f["adjacency"] or f["until"] is not None:
        # On lines of their own.
        if line_open:
            out.append("\n")
        if f["adjacency"]:
            succ = [[] for _ in range(vals[f["graph"]][0] + 1)]
            for i in range(0, len(held), 2):
                succ[held[i]].append(v[i + 1])
            for line in succ[1:]:
                out.append(" ".join(str(x) for x in [len(line)] + line) + "\n")
        elif f["inline"]:
            out.append(" ".join(str(x) for x in v + [f["until"]]) + "\n")
        else:
            if v:
                out.append(" ".join(str(x) for x in v) + "\n")
            out.append("%d\n" % f["until"])
        return
    if f["len_from"] is not None:
        if line_open:
            out.append("\n")
        head = []
    else:
        if line_open:
            out.append(" ")
        head = [str(len(v) // k)]
    items = [" ".join(str(x) for x in v[i:i + k]) for i in range(0, len(v), k)]
    if f["inline"]:
        line = " ".join(head + items)
        if line:
            out.append(line + "\n")
    else:
        if head:
            out.append(head[0] + "\n")
        if k > 1:
            out.extend(item + "\n" for item in items)
        elif v or head:
            out.append(" ".join(items) + "\n")


def write_case(out, vals):
    line_open = False
    for f, v in zip(FIELDS, vals):
        kind = f["kind"]
        if kind == "list":
            write_list(out, f, v, line_open, vals)
            line_open = False
            continue
        if kind == "group" and f["group_until"] is not None:
            # The items on lines of their own, then the terminator's line.
            if line_open:
                out.append("\n")
            for item in v:
                write_list(out, f, item)
            out.append("%d\n" % f["group_until"])
            line_open = False
            continue
        if line_open:
            out.append(" ")
        if kind == "number":
            out.append(str(v[0] - f["shift"]))
            line_open = True
            continue
        if kind == "group":
            out.append("%d\n" % len(v))
            for item in v:
                write_list(out, f, item)
        elif kind == "tree":
            out.append("%d\n" % (len(v) // 2 + 1))
            for i in range(0, len(v), 2):
                out.append("%d %d\n" % (v[i], v[i + 1]))
        line_open = False
    if line_open:
        out.append("\n")


def check_answer(cases, ans):
    """The answer of `cases`: ASCII lines, each ended by a newline, without trailing
    whitespace; and where every case prints the same lines of {case} and {verdict},
    exactly those lines."""
    try:
        text = ans.decode("ascii")
    except UnicodeDecodeError:
        fail("the answer is not ASCII text")
    if text and not text.endswith("\n"):
        fail("the answer's last line has no newline")
    lines = text.split("\n")[:-1] if text else []
    for i, line in enumerate(lines):
        if line != line.rstrip() or "\r" in line:
            fail("answer line %d: whitespace at its end" % (i + 1))
    if SPEC.get("sets") is not None:
        check_set_answer(cases, lines)
        return
    shape = SPEC.get("answer")
    if shape is None:
        return
    per = len(shape["lines"])
    if len(lines) != per * cases:
        fail("the answer has %d lines, %d cases print %d" % (len(lines), cases, per * cases))
    words = "(?:%s|%s)" % (re.escape(shape["win"]), re.escape(shape["lose"]))
    for c in range(cases):
        for k, template in enumerate(shape["lines"]):
            parts = re.split(r"(\{case\}|\{verdict\})", template)
            rx = "".join(
                str(c + 1) if p == "{case}" else words if p == "{verdict}" else re.escape(p)
                for p in parts
            )
            line = lines[c * per + k]
            if not re.fullmatch(rx, line):
                fail("answer line %d: %r is not of the form %r" % (c * per + k + 1, line[:60], template))


def check_set_answer(cases, lines):
    """Each case's lines: the lose lines, or the win lines with each {any} written as
    one move or as a block `@any K` of K >= 2 moves (the text around it on lines of
    its own), every move of the form of the move template (numbers in decimal)."""
    s = SPEC["sets"]
    number = "(?:0|[1-9][0-9]*)"
    member = number.join(re.escape(p) for p in re.split(r"\{[^{}]*\}", s["member"]))
    words = "(?:%s|%s)" % (re.escape(s["win"]), re.escape(s["lose"]))

    def rx(template, c):
        return "".join(
            str(c + 1) if p == "{case}" else words if p == "{verdict}" else re.escape(p)
            for p in re.split(r"(\{case\}|\{verdict\})", template)
        )

    def line(i, pattern):
        return i < len(lines) and re.fullmatch(pattern, lines[i]) is not None

    def case_at(templates, i, c):
        for t in templates:
            if "{any}" not in t:
                if not line(i, rx(t, c)):
                    return None
                i += 1
                continue
            pre, post = t.split("{any}", 1)
            if line(i, rx(pre, c) + member + rx(post, c)):
                i += 1
                continue
            if pre.strip():
                if not line(i, rx(pre.strip(), c)):
                    return None
                i += 1
            m = re.fullmatch(r"@any ([1-9][0-9]*)", lines[i]) if i < len(lines) else None
            if m is None or int(m.group(1)) < 2:
                return None
            k = int(m.group(1))
            i += 1
            for _ in range(k):
                if not line(i, member):
                    return None
                i += 1
            if post.strip():
                if not line(i, rx(post.strip(), c)):
                    return None
                i += 1
        return i

    i = 0
    for c in range(cases):
        j = case_at(s["lose_lines"], i, c)
        if j is None:
            j = case_at(s["win_lines"], i, c)
        if j is None:
            fail("answer line %d: not an answer of case %d (%r)" % (
                i + 1, c + 1, lines[i][:60] if i < len(lines) else "the end"))
        i = j
    if i != len(lines):
        fail("answer line %d: after the answers of the %d cases" % (i + 1, cases))


def validate(data):
    try:
        data.decode("ascii")
    except UnicodeDecodeError:
        fail("the input is not ASCII text")
    r = Reader(data)
    cases = []
    layout = SPEC["layout"]
    if layout == "count":
        t = r.number("the case count", SPEC["count_min"], SPEC["count_max"])
        if t > len(r.toks) - r.i:
            fail("%d cases announced, but the input ends before" % t)
        for c in range(1, t + 1):
            cases.append(read_case(r, c))
        if not r.at_end():
            fail("more input after the %d cases announced" % t)
    elif layout == "one":
        cases.append(read_case(r, 1))
        if not r.at_end():
            fail("more input after the one case")
    elif layout == "eof":
        while not r.at_end():
            cases.append(read_case(r, len(cases) + 1))
        if not cases:
            fail("a test holds at least one case (the input is empty)")
    else:
        z = SPEC["zeros"]
        while True:
            head = r.toks[r.i:r.i + z]
            if len(head) < z:
                fail("the input ends without its terminator line")
            if all(t == b"0" for t in head):
                r.i += z
                if not r.at_end():
                    fail("more input after the terminator line")
                break
            cases.append(read_case(r, len(cases) + 1))
    for c, vals in enumerate(cases, 1):
        if SPEC["group"] is not None:
            for item in vals[SPEC["group"]]:
                check_game(vals, item, c)
        else:
            pos = []
            for k in SPEC["position"]:
                pos.extend(vals[k])
            check_game(vals, pos, c)
    out = []
    if layout == "count":
        out.append("%d\n" % len(cases))
    for vals in cases:
        write_case(out, vals)
    if layout == "terminator":
        out.append(" ".join(["0"] * SPEC["zeros"]) + "\n")
    canonical = "".join(out).encode()
    validate.cases = len(cases)
    if canonical != data:
        a, b = canonical.split(b"\n"), data.split(b"\n")
        line = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        fail(
            "line %d: not in the canonical layout (expected %r)"
            % (line + 1, (a[line] if line < len(a) else b"<end of input>")[:60].decode())
        )


def main():
    # As an answer validator: `validate.py testcase.in [arguments] < testcase.ans`.
    if ANSWER_MODE:
        if len(sys.argv) < 2:
            sys.stderr.write("usage: validate.py testcase.in < testcase.ans\n")
            sys.exit(2)
        with open(sys.argv[1], "rb") as f:
            data = f.read()
        try:
            validate(data)
        except Invalid as e:
            sys.stderr.write("the input is invalid: %s\n" % e)
            sys.exit(43)
        try:
            check_answer(validate.cases, sys.stdin.buffer.read())
        except Invalid as e:
            sys.stderr.write("invalid answer: %s\n" % e)
            sys.exit(43)
        sys.exit(42)
    data = sys.stdin.buffer.read()
    try:
        validate(data)
    except Invalid as e:
        sys.stderr.write("invalid input: %s\n" % e)
        sys.exit(43)
    sys.exit(42)


if __name__ == "__main__":
    main()
