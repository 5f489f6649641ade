#!/usr/bin/env python3
"""Writes the SQL whose PostgreSQL 15 output is numericmath_golden.tsv.

    python3 numericmath_golden.py | psql -X -At -F $'\t' -h /tmp -p 55999 -U postgres \
        -v ON_ERROR_STOP=0 2>/dev/null > numericmath_golden.tsv

Inputs are drawn with a fixed seed over many weights and scales, near 1
(where ln and log cancel) and near rounding midpoints; each output row is
function, arguments, PostgreSQL's result. Statements PostgreSQL rejects
print nothing (error cases live in numericmath_test.go).
"""
import random

rnd = random.Random(17)


def num(max_digits=24, lo=-30, hi=30):
    digits = rnd.randint(1, max_digits)
    mant = str(rnd.randint(1, 10 ** digits - 1))
    point = rnd.randint(lo, hi)
    # place the decimal point `point` digits from the end of mant
    if point <= 0:
        s = mant + "0" * (-point)
    elif point >= len(mant):
        s = "0." + "0" * (point - len(mant)) + mant
    else:
        s = mant[:-point] + "." + mant[-point:]
    return s


def near_one():
    k = rnd.randint(1, 30)
    eps = "0." + "0" * (k - 1) + str(rnd.randint(1, 10 ** rnd.randint(1, 8)))
    return rnd.choice(["1", "0.9"]) + eps[1:] if rnd.random() < 0.5 else "1" + eps[1:]


def emit(fn, *args):
    lits = ", ".join("%s::numeric" % a for a in args)
    keys = " ".join(args)
    print("SELECT '%s', '%s', %s(%s);" % (fn, keys, fn, lits))


for _ in range(300):
    emit("sqrt", num(30, -40, 40))
for _ in range(60):
    emit("sqrt", num(40, 0, 30) + "0" * rnd.randint(0, 3))
for _ in range(250):
    x = num(20, -6, 20)
    if rnd.random() < 0.4:
        x = "-" + x
    emit("exp", x)
for _ in range(40):
    emit("exp", str(rnd.randint(-5999, 5999)) + "." + str(rnd.randint(0, 99999)))
for _ in range(250):
    emit("ln", num(24, -40, 40))
for _ in range(80):
    emit("ln", near_one())
for _ in range(200):
    emit("log", num(12, -10, 10), num(20, -30, 30))
for _ in range(60):
    emit("log", near_one(), num(12, -10, 10))
for _ in range(100):
    emit("log10", num(20, -30, 30))
for _ in range(250):
    b = num(10, -6, 6)
    if rnd.random() < 0.2:
        b = "-" + b
    emit("power", b, str(rnd.randint(-60, 60)))
for _ in range(250):
    b = num(10, -6, 6)
    e = num(6, 0, 4)
    if rnd.random() < 0.4:
        e = "-" + e
    emit("power", b, e)
for _ in range(60):
    emit("power", near_one(), str(rnd.randint(1, 2 ** 31 - 1)))
for _ in range(40):
    emit("power", num(6, 3, 6), num(8, -2, 8))
