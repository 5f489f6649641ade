"""Exercises psycopg2 against a server: parameters, transactions, copy_expert.

Prints one line per check; the Go test compares with psycopg2.out.
"""
import datetime
import decimal
import io
import sys

import psycopg2

conn = psycopg2.connect(sys.argv[1])
cur = conn.cursor()
cur.execute("drop table if exists p")
cur.execute("create table p (id int, name text, amount numeric(8,2), day date, at timestamp, ok boolean, f float8)")
conn.commit()
rows = [
    (1, "o'neil", decimal.Decimal("12.50"), datetime.date(2024, 1, 31), datetime.datetime(2024, 1, 31, 8, 30, 0, 250000), True, 0.1),
    (2, "back\\slash", decimal.Decimal("-0.01"), datetime.date(1999, 12, 31), datetime.datetime(2000, 1, 1), False, -2.5e-10),
    (3, None, None, None, None, None, None),
]
cur.executemany("insert into p values (%s, %s, %s, %s, %s, %s, %s)", rows)
conn.commit()
cur.execute("select * from p where id >= %(lo)s and (name <> %(skip)s or name is null) order by id", {"lo": 1, "skip": "nobody"})
for r in cur.fetchall():
    print("row", r)
print("description", [(d.name, d.type_code) for d in cur.description])

# A failed statement aborts the transaction until rollback.
try:
    cur.execute("select 1/0")
except psycopg2.Error as e:
    print("error", e.pgcode, e.pgerror.splitlines()[0])
try:
    cur.execute("select 1")
except psycopg2.Error as e:
    print("aborted", e.pgcode)
conn.rollback()
cur.execute("insert into p (id) values (10)")
conn.rollback()
cur.execute("select count(*) from p")
print("after rollback", cur.fetchone()[0])

# COPY in and out.
data = io.StringIO('id,name,amount\n20,"with, comma",1.5\n21,"multi\nline",\n22,plain,3\n')
cur.copy_expert("copy p (id, name, amount) from stdin with (format csv, header)", data)
print("copy in", cur.rowcount)
conn.commit()
out = io.StringIO()
cur.copy_expert("copy (select id, name, amount from p where id >= 20 order by id) to stdout with csv header", out)
print("copy out", repr(out.getvalue()))
out = io.StringIO()
cur.copy_expert("copy (select id, name from p where id < 3 order by id) to stdout", out)
print("copy text", repr(out.getvalue()))
bad = io.StringIO("30\tok\n31\tfine\nx\tbad\n")
try:
    cur.copy_expert("copy p (id, name) from stdin", bad)
except psycopg2.Error as e:
    print("copy error", e.pgcode, e.pgerror.splitlines()[0], "|", e.diag.context)
conn.rollback()
cur.execute("select count(*) from p where id >= 30")
print("bad copy loaded", cur.fetchone()[0])
conn.rollback()
conn.autocommit = True
cur.execute("set application_name = %s", ("psy",))
cur.execute("show application_name")
print("setting", cur.fetchone()[0])
conn.close()
