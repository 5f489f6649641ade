"""SQLAlchemy Inspector over a schema with every kind of key, index,
check, comment and a view; prints each method's answer, one per line, so
the Go test compares joind's with PostgreSQL 15's (TestSQLAlchemyInspector)."""
import sys

import sqlalchemy as sa

engine = sa.create_engine(sys.argv[1])
setup = [
    "DROP VIEW IF EXISTS sai_v",
    "DROP TABLE IF EXISTS sai_child",
    "DROP TABLE IF EXISTS sai_par",
    "CREATE TABLE sai_par (id int PRIMARY KEY, code varchar(10) UNIQUE, n numeric(8,2) CHECK (n > 0), t text DEFAULT 'x' NOT NULL)",
    "CREATE TABLE sai_child (id bigint PRIMARY KEY, par int REFERENCES sai_par(id), note text, ts timestamp)",
    "CREATE INDEX sai_child_note ON sai_child (note)",
    "CREATE UNIQUE INDEX sai_child_pn ON sai_child (par, note)",
    "COMMENT ON TABLE sai_par IS 'parents'",
    "CREATE VIEW sai_v AS SELECT id, code FROM sai_par WHERE n > 1",
]
with engine.begin() as c:
    for s in setup:
        c.execute(sa.text(s))

insp = sa.inspect(engine)


def show(name, call):
    try:
        v = call()
    except Exception as e:  # the failure is part of the answer
        v = "ERROR %s" % type(e).__name__
    if isinstance(v, list):
        v = sorted(v, key=repr)
    print("%s: %r" % (name, v))


show("get_table_names", lambda: [t for t in insp.get_table_names() if t.startswith("sai_")])
show("get_view_names", lambda: [t for t in insp.get_view_names() if t.startswith("sai_")])
for t in ("sai_par", "sai_child"):
    show(t + " get_columns", lambda: [(c["name"], str(c["type"]), c["nullable"], c["default"]) for c in insp.get_columns(t)])
    show(t + " get_pk_constraint", lambda: insp.get_pk_constraint(t))
    show(t + " get_indexes", lambda: insp.get_indexes(t))
    show(t + " get_unique_constraints", lambda: insp.get_unique_constraints(t))
    show(t + " get_foreign_keys", lambda: insp.get_foreign_keys(t))
    show(t + " get_check_constraints", lambda: insp.get_check_constraints(t))
    show(t + " get_table_comment", lambda: insp.get_table_comment(t))
show("sai_v get_columns", lambda: [(c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns("sai_v")])
show("sai_v get_view_definition", lambda: insp.get_view_definition("sai_v"))
