#!/usr/bin/env python3
"""Regenerate golden.txt from a real PostgreSQL 15.

Usage: PGHOST=/tmp/pg PGPORT=55440 PGUSER=postgres python3 gen.py
Reads cases.txt, runs each case through psql, writes golden.txt as
"<case>\t<result>" lines where result is OK:<text> or ERR:<sqlstate>:<message>
(with |DETAIL:... and |HINT:... appended when present). The Go test reads
golden.txt only, so CI needs no PostgreSQL.
"""
import subprocess, sys

def lit(l, t):
    if l == "NULL":
        return "NULL" if t == "unknown" else "NULL::" + t
    q = "'" + l.replace("'", "''") + "'"
    return q if t == "unknown" else q + "::" + t

def sql_for(fields):
    kind = fields[0]
    pre = ""
    if kind == "tz":  # tz|TimeZone|DateStyle|inner case...
        return "set timezone='%s'; set datestyle='%s'; %s" % (fields[1], fields[2], sql_for(fields[3:]))
    if kind == "in":  # in|lit|type
        return "select " + lit(fields[1], fields[2])
    if kind == "conv":  # conv|lit|from|to
        return "select (%s)::%s" % (lit(fields[1], fields[2]), fields[3])
    if kind == "op":  # op|l|lt|op|r|rt  (lt empty = prefix)
        if fields[2] == "":
            return "select %s %s" % (fields[3], lit(fields[4], fields[5]))
        return "select %s %s %s" % (lit(fields[1], fields[2]), fields[3], lit(fields[4], fields[5]))
    if kind == "fn":  # fn|name|lit:type|...
        args = []
        for a in fields[2:]:
            l, t = a.rsplit(":", 1)
            args.append(lit(l, t))
        name = fields[1]
        if name in ("extract", "position", "substring", "overlay", "trim"):
            name = "pg_catalog." + name  # keywords with special grammar
        return "select %s(%s)" % (name, ", ".join(args))
    if kind == "agg":  # agg|name|type|v1,v2,...
        vals = ",".join("(%s)" % lit(v, fields[2]) for v in fields[3].split(","))
        return "select %s(x) from (values %s) v(x)" % (fields[1], vals)
    if kind == "fmt":  # fmt|lit|type|datestyle|intervalstyle|efd
        pre = "set datestyle='%s'; set intervalstyle='%s'; set extra_float_digits=%s; " % (fields[3], fields[4], fields[5])
        return pre + "select " + lit(fields[1], fields[2])
    if kind == "cmp":  # cmp|a|b|type  -> sign of comparison via ORDER semantics
        return "select case when %s < %s then -1 when %s = %s then 0 else 1 end" % (
            lit(fields[1], fields[3]), lit(fields[2], fields[3]), lit(fields[1], fields[3]), lit(fields[2], fields[3]))
    raise SystemExit("unknown case kind: " + kind)

def split_case(c):
    """Split on '|' except where escaped as '\\|'."""
    out, cur, i = [], "", 0
    while i < len(c):
        if c[i] == "\\" and i + 1 < len(c) and c[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if c[i] == "|":
            out.append(cur)
            cur = ""
        else:
            cur += c[i]
        i += 1
    out.append(cur)
    return out

def run(sql):
    p = subprocess.run(["psql", "-X", "-At", "-q", "-v", "VERBOSITY=verbose", "-c", "\\pset null <NULL>", "-c", sql],
                       capture_output=True, text=True)
    if p.returncode == 0 and not p.stderr.strip():
        return "OK:" + p.stdout.rstrip("\n").split("\n")[-1]
    out = ""
    for line in p.stderr.splitlines():
        if line.startswith("ERROR:  "):
            msg = line[len("ERROR:  "):]
            code, _, text = msg.partition(": ")
            out = "ERR:%s:%s" % (code, text)
        elif line.startswith("DETAIL:  "):
            out += "|DETAIL:" + line[len("DETAIL:  "):]
        elif line.startswith("HINT:  "):
            out += "|HINT:" + line[len("HINT:  "):]
    return out or "ERR:?:" + p.stderr.strip()

def main():
    with open("cases.txt") as f:
        cases = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    with open("golden.txt", "w") as out:
        for c in cases:
            out.write(c + "\t" + run(sql_for(split_case(c))) + "\n")

if __name__ == "__main__":
    main()
