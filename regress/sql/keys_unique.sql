SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- PRIMARY KEY and UNIQUE: generated names, enforcement, NULLs distinct.
CREATE TABLE ku_t (id int PRIMARY KEY, code text UNIQUE, a int, b int, UNIQUE (a, b));
INSERT INTO ku_t VALUES (1, 'x', 1, 1);
INSERT INTO ku_t VALUES (1, 'y', 2, 2);
INSERT INTO ku_t VALUES (2, 'x', 2, 2);
INSERT INTO ku_t VALUES (2, 'y', 1, 1);
INSERT INTO ku_t VALUES (null, 'z', 3, 3);
-- NULLs never collide.
INSERT INTO ku_t VALUES (2, null, null, 1), (3, null, null, 1), (4, null, 1, null);
-- Within one statement: the later row fails.
INSERT INTO ku_t VALUES (10, 'p', 10, 10), (11, 'q', 11, 11), (10, 'r', 12, 12);
INSERT INTO ku_t SELECT g, 'g' || g, g, g FROM generate_series(20, 25) g;
INSERT INTO ku_t SELECT g % 3 + 30, 'h' || g, g, g FROM generate_series(1, 5) g;
SELECT * FROM ku_t ORDER BY id;
-- Across statements of a transaction, and after ROLLBACK TO.
BEGIN;
INSERT INTO ku_t VALUES (40, 'b1', 40, 40);
SAVEPOINT s;
INSERT INTO ku_t VALUES (40, 'b2', 41, 41);
ROLLBACK TO s;
INSERT INTO ku_t VALUES (41, 'b2', 41, 41);
COMMIT;
SELECT id, code FROM ku_t WHERE id >= 40 ORDER BY id;
-- Multi-column keys, named constraints, types.
CREATE TABLE ku_m (d date, t text, n numeric, CONSTRAINT ku_m_k PRIMARY KEY (d, t), UNIQUE (n));
INSERT INTO ku_m VALUES ('2024-01-01', 'a', 1.0), ('2024-01-01', 'b', 2);
INSERT INTO ku_m VALUES ('2024-01-01', 'a', 3);
INSERT INTO ku_m VALUES ('2024-01-02', 'a', 1.00);
SELECT * FROM ku_m ORDER BY d, t;
-- Name collisions and PostgreSQL's choices.
CREATE TABLE ku_n (a int UNIQUE, b int, UNIQUE (a), UNIQUE (b), CONSTRAINT ku_n_a_key1 CHECK (a > 0), UNIQUE (a, b));
SELECT conname, contype, conkey, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'ku_n'::regclass ORDER BY conname;
CREATE TABLE ku_bad (a int PRIMARY KEY, b int PRIMARY KEY);
CREATE TABLE ku_bad (a int, PRIMARY KEY (z));
CREATE TABLE ku_bad (a int, CONSTRAINT ku_t_pkey UNIQUE (a));
CREATE TABLE ku_bad (a int CONSTRAINT c1 CHECK (a > 0), b int CONSTRAINT c1 CHECK (b > 0));
-- The primary key's columns are NOT NULL.
SELECT attname, attnotnull FROM pg_attribute WHERE attrelid = 'ku_m'::regclass AND attnum > 0 ORDER BY attnum;
SELECT conname, contype, conkey, condeferrable, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid IN ('ku_t'::regclass, 'ku_m'::regclass) ORDER BY conname;
-- ALTER TABLE ADD / DROP CONSTRAINT.
CREATE TABLE ku_a (a int, b int);
INSERT INTO ku_a VALUES (1, 1), (1, 2), (null, 3);
ALTER TABLE ku_a ADD PRIMARY KEY (a);
ALTER TABLE ku_a ADD CONSTRAINT ku_a_u UNIQUE (b);
TRUNCATE ku_a;
INSERT INTO ku_a VALUES (1, 1), (2, 2);
ALTER TABLE ku_a ADD PRIMARY KEY (b);
INSERT INTO ku_a VALUES (9, 1);
ALTER TABLE ku_a DROP CONSTRAINT ku_a_u;
ALTER TABLE ku_a DROP CONSTRAINT nope;
ALTER TABLE ku_a DROP CONSTRAINT IF EXISTS nope;
ALTER TABLE ku_a DROP CONSTRAINT ku_a_pkey;
INSERT INTO ku_a VALUES (9, 1);
SELECT * FROM ku_a ORDER BY a, b;
-- TRUNCATE empties the keys.
TRUNCATE ku_m;
INSERT INTO ku_m VALUES ('2024-01-01', 'a', 1);
SELECT count(*) FROM ku_m;
-- A duplicate key's DETAIL is in the session's DateStyle.
SET DateStyle = 'Postgres, MDY';
CREATE TABLE ku_d (d date PRIMARY KEY, t timestamp UNIQUE);
INSERT INTO ku_d VALUES ('2024-01-01', '2024-01-01 10:00');
INSERT INTO ku_d VALUES ('2024-01-01', '2024-01-02 10:00');
INSERT INTO ku_d VALUES ('2024-01-03', '2024-01-01 10:00');
SET DateStyle = 'ISO, MDY';
DROP TABLE ku_t, ku_m, ku_n, ku_a, ku_d;
