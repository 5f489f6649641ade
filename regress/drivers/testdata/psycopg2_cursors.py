"""Exercises psycopg2's server-side (named) cursors against a server.

psycopg2 runs a named cursor as DECLARE "name" CURSOR WITHOUT HOLD FOR
...; FETCH FORWARD n FROM "name"; MOVE ...; CLOSE "name" over the simple
query protocol. Prints one line per check; the Go test compares with
psycopg2_cursors.out (this script's output against PostgreSQL 15).
"""
import sys

import psycopg2

conn = psycopg2.connect(sys.argv[1])
cur = conn.cursor()
cur.execute("drop table if exists pc_items")
cur.execute("create table pc_items (id int, label text)")
cur.execute("insert into pc_items select g, 'item ' || g from generate_series(1, 2500) g")
conn.commit()

# Iterating a named cursor fetches itersize rows at a time.
named = conn.cursor(name="c_iter")
named.itersize = 1000
named.execute("select id, label from pc_items order by id")
n, total, last = 0, 0, None
for row in named:
    n += 1
    total += row[0]
    last = row
print("iterated", n, total, last)
print("description", [(d.name, d.type_code) for d in named.description])
named.close()

# fetchone / fetchmany / fetchall, with a parameter.
named = conn.cursor(name="c_fetch")
named.execute("select id from pc_items where id <= %s order by id", (10,))
print("fetchone", named.fetchone())
print("fetchmany", named.fetchmany(3))
print("fetchall", named.fetchall())
print("after end", named.fetchone())
named.close()
conn.commit()

# A scrollable cursor moves both ways.
named = conn.cursor(name="c_scroll", scrollable=True)
named.execute("select id from pc_items where id <= 20 order by id")
named.scroll(5)
print("scroll relative", named.fetchone())
named.scroll(2, mode="absolute")
print("scroll absolute", named.fetchone())
named.scroll(-2)
print("scroll back", named.fetchone())
named.close()
conn.rollback()

# A NO SCROLL cursor refuses to go back.
named = conn.cursor(name="c_noscroll", scrollable=False)
named.execute("select id from pc_items order by id")
named.fetchmany(2)
try:
    named.scroll(-1)
except psycopg2.Error as e:
    print("no scroll", e.pgcode, e.pgerror.splitlines()[0])
conn.rollback()

# WITH HOLD: the cursor outlives the commit.
named = conn.cursor(name="c_hold", withhold=True)
named.execute("select id from pc_items where id > 2490 order by id")
print("held first", named.fetchone())
conn.commit()
print("held after commit", named.fetchmany(4))
named.close()
conn.commit()

# Without HOLD the cursor ends with the transaction.
named = conn.cursor(name="c_gone")
named.execute("select id from pc_items order by id")
named.fetchone()
conn.commit()
try:
    cur.execute('fetch from "c_gone"')
except psycopg2.Error as e:
    print("gone", e.pgcode, e.pgerror.splitlines()[0])
conn.rollback()

# An error inside the cursor's query surfaces at the fetch (the sort
# reads every row at the first one).
named = conn.cursor(name="c_err")
named.execute("select 10 / (id - 3) from pc_items order by id")
try:
    named.fetchmany(2)
except psycopg2.Error as e:
    print("fetch error", e.pgcode, e.pgerror.splitlines()[0])
conn.rollback()

# pg_cursors sees the open cursors.
a = conn.cursor(name="c_a")
a.execute("select 1")
b = conn.cursor(name="c_b", withhold=True)
b.execute("select 2")
cur.execute("select name, is_holdable, is_scrollable from pg_cursors order by name")
print("pg_cursors", cur.fetchall())
conn.rollback()

cur.execute("drop table pc_items")
conn.commit()
conn.close()
