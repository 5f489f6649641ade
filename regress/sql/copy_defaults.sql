--
-- copy_defaults: COPY FROM fills the columns its column list omits with
-- their DEFAULTs exactly as INSERT does: volatile ones per row, stable
-- ones once per statement, errors only when a default is used.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

-- now() is the transaction's start; random() and clock_timestamp() are per row.
CREATE TABLE cdf_t (a int, ts timestamptz DEFAULT now(), r float8 DEFAULT random(),
  c timestamptz DEFAULT clock_timestamp(), d date DEFAULT current_date);
BEGIN;
COPY cdf_t (a) FROM stdin;
1
2
3
4
5
6
7
8
9
10
\.
COPY cdf_t (a) FROM stdin (FORMAT csv);
11
12
13
\.
INSERT INTO cdf_t (a) VALUES (14), (15);
SELECT count(*), bool_and(ts = now()) AS ts_now, count(DISTINCT r) = count(*) AS r_per_row,
  bool_and(r >= 0 AND r < 1) AS r_range, bool_and(c >= ts) AS c_after_start,
  bool_and(ts > '2000-01-01') AS ts_recent, bool_and(d = current_date) AS d_today
  FROM cdf_t;
COMMIT;
COPY cdf_t (a) FROM stdin;
16
\.
SELECT count(DISTINCT ts) AS statements, bool_and(ts <= now()) AS ts_past FROM cdf_t;
-- A column list that names every column evaluates no default.
COPY cdf_t (a, ts, r, c, d) FROM stdin;
17	2001-02-03 04:05:06+00	0.5	2001-02-03 04:05:07+00	2001-02-03
\.
SELECT * FROM cdf_t WHERE a = 17;
-- The input 'now' is the transaction's start too.
BEGIN;
COPY cdf_t (a, ts) FROM stdin;
18	now
\.
SELECT a, ts = now() AS ts_now FROM cdf_t WHERE a = 18;
COMMIT;
DROP TABLE cdf_t;

-- Casts and constant expressions, as INSERT stores them.
CREATE TABLE cdf_c (a int, i int DEFAULT '42'::text::int, n numeric(5,2) DEFAULT 1.005,
  v varchar(3) DEFAULT 'abc', ch char(4) DEFAULT 'ab', t text DEFAULT 'x' || 'y' || 1,
  dt date DEFAULT '2020-02-29', tsv timestamp DEFAULT '2020-01-01 10:00'::timestamp + interval '90 minutes',
  iv interval DEFAULT '1 day 2 hours', b boolean DEFAULT 1 < 2, f float4 DEFAULT 1.5,
  s smallint DEFAULT 7 * 6, bi bigint DEFAULT 2^40, nu int DEFAULT NULL);
COPY cdf_c (a) FROM stdin;
1
\.
COPY cdf_c (a) FROM stdin (FORMAT csv);
2
\.
INSERT INTO cdf_c (a) VALUES (3);
SELECT * FROM cdf_c ORDER BY a;
DROP TABLE cdf_c;

-- A counter in a session setting: a default with side effects runs once
-- per row, in input order.
CREATE TABLE cdf_s (a int, n int DEFAULT set_config('cdf.n',
  (coalesce(nullif(current_setting('cdf.n', true), ''), '0')::int + 1)::text, false)::int);
COPY cdf_s (a) FROM stdin;
10
20
30
\.
COPY cdf_s (a) FROM stdin (FORMAT csv);
40
50
\.
SELECT * FROM cdf_s ORDER BY a;
SHOW cdf.n;
DROP TABLE cdf_s;
-- The row whose default fails names its line; the failed statement's
-- settings are rolled back.
SET cdf.q = '0';
CREATE TABLE cdf_r (a int, b int DEFAULT 10 / (3 - set_config('cdf.q',
  (current_setting('cdf.q')::int + 1)::text, false)::int));
COPY cdf_r (a) FROM stdin;
1
2
3
4
\.
SHOW cdf.q;
BEGIN;
COPY cdf_r (a) FROM stdin;
1
2
\.
SHOW cdf.q;
COMMIT;
SELECT * FROM cdf_r ORDER BY a;
DROP TABLE cdf_r;
RESET cdf.q;

-- A default that fails does so only when used, on the first row that uses it.
CREATE TABLE cdf_e (a int, b int DEFAULT 10 / (random() * 0)::int);
COPY cdf_e (a, b) FROM stdin;
1	2
\.
COPY cdf_e FROM stdin;
3	4
\.
COPY cdf_e (a) FROM stdin;
\.
COPY cdf_e (a) FROM stdin;
5
6
\.
COPY cdf_e (a) FROM stdin (FORMAT csv, HEADER);
a
7
\.
-- A bad field is reported before the row's defaults are evaluated.
COPY cdf_e (a) FROM stdin;
x
\.
SELECT * FROM cdf_e ORDER BY a;
DROP TABLE cdf_e;
CREATE TABLE cdf_g (a int, b text DEFAULT current_setting('cdf.no_such_setting'));
COPY cdf_g (a) FROM stdin;
\.
COPY cdf_g (a) FROM stdin;
1
\.
COPY cdf_g (a, b) FROM stdin;
2	given
\.
SELECT * FROM cdf_g ORDER BY a;
DROP TABLE cdf_g;
-- A constant default that fails fails when COPY starts, before any data
-- (CREATE TABLE only checks it).
CREATE TABLE cdf_k (a int, b int DEFAULT 1 / 0, c numeric(3,1) DEFAULT 12345,
  v varchar(3) DEFAULT 'abcdef', i int DEFAULT 2147483648);
COPY cdf_k (a, c) FROM stdin;
\.
COPY cdf_k (a, b) FROM stdin;
\.
COPY cdf_k (a, b, c, i) FROM stdin;
\.
COPY cdf_k (a, b, c, v) FROM stdin;
\.
INSERT INTO cdf_k (a, b, c) VALUES (1, 2, 3);
COPY cdf_k (a, b, c, v, i) FROM stdin;
2	3	4	xyz	5
\.
SELECT * FROM cdf_k ORDER BY a;
DROP TABLE cdf_k;

-- NOT NULL columns whose default is NULL.
CREATE TABLE cdf_n (a int, b int NOT NULL DEFAULT NULL, c text NOT NULL);
COPY cdf_n (a) FROM stdin;
\.
COPY cdf_n (a, c) FROM stdin;
1	x
\.
COPY cdf_n (a, c) FROM stdin (FORMAT csv);
1,x
\.
COPY cdf_n (a, b, c) FROM stdin;
1	2	x
\.
SELECT * FROM cdf_n ORDER BY a;
DROP TABLE cdf_n;
CREATE TABLE cdf_m (a int, b int NOT NULL DEFAULT CASE WHEN random() < 2 THEN NULL ELSE 1 END);
COPY cdf_m (a) FROM stdin;
1
\.
COPY cdf_m (a, b) FROM stdin;
1	1
\.
SELECT * FROM cdf_m ORDER BY a;
DROP TABLE cdf_m;
RESET cdf.n;
