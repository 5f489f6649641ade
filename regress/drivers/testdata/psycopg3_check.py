"""psycopg 3 against a server: TypeInfo.fetch of built-in and user types,
named (server-side) cursors, COPY in and out, parameters of common types
and the types psycopg loads results as. One line per check, "name: value";
psycopg3_test.go runs it on PostgreSQL 15 and joind and compares the lines.
"""
import datetime
import decimal
import sys

import psycopg
from psycopg.types import TypeInfo
from psycopg.types.enum import EnumInfo
from psycopg.types.composite import CompositeInfo


def out(name, value):
    print(f"{name}: {value}", flush=True)


def attempt(name, fn):
    try:
        out(name, fn())
    except psycopg.Error as e:
        out(name, f"ERROR {e.sqlstate} {str(e).splitlines()[0]}")


conn = psycopg.connect(sys.argv[1], autocommit=True)
cur = conn.cursor()
for s in [
    "drop table if exists p3_t",
    "drop table if exists p3_copy",
    "drop type if exists p3_pair",
    "drop type if exists p3_mood",
    "drop domain if exists p3_posint",
    "create domain p3_posint as int check (value > 0)",
    "create type p3_mood as enum ('sad', 'ok', 'happy')",
    "create type p3_pair as (a int, b text)",
    "create table p3_t (id int primary key, name text, n numeric(10,2), d date, ts timestamp, "
    "b boolean, f float8, m p3_mood, p p3_posint)",
    "create table p3_copy (id int, t text, n numeric)",
]:
    cur.execute(s)

for name in ["int4", "text", "numeric", "name", "oid", "p3_posint", "p3_mood", "p3_pair"]:
    def info(name=name):
        ti = TypeInfo.fetch(conn, name)
        if ti is None:
            return None
        return f"name={ti.name} oid_is_set={ti.oid > 0} array_oid_is_set={ti.array_oid > 0} " \
               f"array_is_oid_plus={ti.array_oid - ti.oid if ti.oid < 16384 else 'user'}"
    attempt("TypeInfo " + name, info)

attempt("TypeInfo array of int4", lambda: (lambda ti: cur.execute(
    "select typname, typelem = %s from pg_type where oid = %s", (ti.oid, ti.array_oid)).fetchone())(
    TypeInfo.fetch(conn, "int4")))
attempt("TypeInfo array of p3_posint", lambda: (lambda ti: cur.execute(
    "select typname, typelem = %s from pg_type where oid = %s", (ti.oid, ti.array_oid)).fetchone())(
    TypeInfo.fetch(conn, "p3_posint")))
attempt("EnumInfo p3_mood", lambda: EnumInfo.fetch(conn, "p3_mood").labels)


def composite():
    ci = CompositeInfo.fetch(conn, "p3_pair")
    return f"{ci.field_names} {[t > 0 for t in ci.field_types]} array_is_set={ci.array_oid > 0}"


attempt("CompositeInfo p3_pair", composite)

# Parameters of common types and the Python types results load as.
rows = [
    (1, "one", decimal.Decimal("1.50"), datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 3, 4, 5), True, 0.25, "ok", 5),
    (2, None, decimal.Decimal("-2"), None, None, False, None, "happy", None),
    (3, "three", None, datetime.date(1999, 12, 31), datetime.datetime(2000, 2, 29, 23, 59, 59, 500000), None, -1e10, None, 7),
]
cur.executemany("insert into p3_t values (%s, %s, %s, %s, %s, %s, %s, %s, %s)", rows)
for r in cur.execute("select * from p3_t where id >= %s order by id", (1,)):
    out("row", [(type(v).__name__, v) for v in r])
out("description", [(d.name, d.type_code > 0) for d in cur.description])
attempt("binary", lambda: conn.cursor(binary=True).execute(
    "select id, name, n, d, ts, b, f from p3_t order by id").fetchall())
attempt("domain check", lambda: cur.execute("insert into p3_t (id, p) values (9, -1)"))
attempt("params", lambda: cur.execute(
    "select %s::int + 1, %s || 'x', %s::numeric * 2, %s::date + 1, %s::text is null",
    (41, "a", decimal.Decimal("1.25"), datetime.date(2024, 2, 28), None)).fetchone())
# An untyped NULL parameter nothing types: PostgreSQL answers 42P18.
attempt("untyped null param", lambda: cur.execute("select %s is null", (None,)).fetchone())

# Prepared statements (executemany prepares) and a rollback: psycopg sends
# DEALLOCATE ALL through the extended protocol afterwards.
def prepared_rollback():
    with psycopg.connect(sys.argv[1]) as c:
        cc = c.cursor()
        for i in range(6):
            cc.execute("select %s::int * 2", (i,), prepare=True)
        n = cc.fetchone()
        c.rollback()
        again = c.execute("select %s::int + 1", (41,), prepare=True).fetchone()
        c.execute("deallocate all", prepare=False)
        return [n, again, c.execute("select count(*) from pg_prepared_statements").fetchone()]


attempt("prepared then rollback", prepared_rollback)

# Named (server-side) cursors: DECLARE / FETCH / MOVE / CLOSE, each on a
# connection of its own so that a failure stays within its check.
def named():
    with psycopg.connect(sys.argv[1]) as c, c.cursor(name="p3_named") as nc:
        nc.itersize = 2
        nc.execute("select id, name from p3_t order by id")
        return [nc.fetchone(), nc.fetchmany(1), nc.fetchall()]


def scroll():
    with psycopg.connect(sys.argv[1]) as c, c.cursor(name="p3_scroll", scrollable=True) as nc:
        nc.execute("select g from generate_series(1, 10) g")
        nc.scroll(5, mode="absolute")
        a = nc.fetchone()
        nc.scroll(-3)
        return [a, nc.fetchone(), [r[0] for r in nc]]


def withhold():
    with psycopg.connect(sys.argv[1], autocommit=True) as c, c.cursor(name="p3_hold", withhold=True) as nc:
        nc.execute("select g * 2 from generate_series(1, 5) g")
        return nc.fetchmany(3)


attempt("named cursor", named)
attempt("scrollable named cursor", scroll)
attempt("withhold named cursor", withhold)
attempt("pg_cursors", lambda: cur.execute("select count(*) from pg_cursors").fetchone())

# COPY in (rows and text blocks) and out.
with cur.copy("copy p3_copy (id, t, n) from stdin") as cp:
    cp.write_row((1, "a\tb", decimal.Decimal("1.5")))
    cp.write_row((2, None, None))
with cur.copy("copy p3_copy from stdin with (format csv)") as cp:
    cp.write("3,\"x,y\",2.25\n4,,\n")
out("copy rows", cur.rowcount)
out("copied", cur.execute("select * from p3_copy order by id").fetchall())
lines = []
with cur.copy("copy (select * from p3_copy order by id) to stdout") as cp:
    for block in cp:
        lines.append(bytes(block).decode())
out("copy out", "".join(lines).split("\n"))
with cur.copy("copy (select id, t from p3_copy order by id) to stdout") as cp:
    out("copy out rows", list(cp.rows()))
try:
    with cur.copy("copy p3_copy (id) from stdin") as cp:
        cp.write("not a number\n")
except psycopg.Error as e:
    out("copy error", f"{e.sqlstate} {str(e).splitlines()[0]}")
conn.close()
