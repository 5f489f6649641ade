--
-- srf_select: set-returning functions in the SELECT list (ProjectSet),
-- ROWS FROM, WITH ORDINALITY, column aliases, LATERAL function calls, and
-- where PostgreSQL rejects set-returning functions.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE sf_t (id integer, n integer, grp text);
INSERT INTO sf_t VALUES (1, 2, 'a'), (2, 3, 'a'), (3, NULL, 'b'), (4, 0, 'b'), (5, 1, NULL);

-- In the SELECT list: one function, per input row, several in lockstep.
SELECT generate_series(1, 3) AS g ORDER BY g;
SELECT generate_series(1, 3) AS a, generate_series(1, 2) AS b ORDER BY a;
SELECT generate_series(1, 2) AS a, generate_series(10, 14, 2) AS b ORDER BY b;
SELECT id, generate_series(1, n) AS g FROM sf_t ORDER BY id, g;
SELECT id, generate_series(1, n) AS g, generate_series(1, 2) AS h FROM sf_t ORDER BY id, h;
SELECT id, generate_series(n, 1, -1) AS g FROM sf_t WHERE id < 3 ORDER BY id, g;
SELECT generate_series(1, 0) AS none;
SELECT generate_series(1, NULL::integer) AS none;
SELECT generate_series(1, 3) FROM sf_t WHERE false;
-- Nested in the arguments of another: the inner expands first.
SELECT generate_series(1, generate_series(1, 3)) AS g ORDER BY 1;
SELECT generate_series(1, generate_series(1, 3)) AS g, generate_series(1, 2) AS h ORDER BY h, g;
-- Inside expressions and over other types.
SELECT generate_series(1, 3) * 10 + 1 AS x ORDER BY x;
SELECT generate_series(1, 2) + generate_series(1, 3) AS x ORDER BY x;
SELECT greatest(generate_series(1, 3), 2) AS x, nullif(generate_series(1, 3), 2) AS y ORDER BY y;
SELECT generate_series(1::int8, 3::int8) AS i8 ORDER BY 1;
SELECT generate_series(0.5, 2.0, 0.5) AS num ORDER BY 1;
SELECT generate_series('2024-01-31'::timestamp, '2024-05-01', '1 month') AS ts ORDER BY 1;
SELECT generate_series('2024-01-01 00:00'::timestamptz, '2024-01-01 02:00', '1 hour') AS tstz ORDER BY 1;
SELECT generate_series(1, 3) IS NULL AS isnull, generate_series(1, 3) AS g ORDER BY g;
-- With aggregates and GROUP BY: evaluated after grouping.
SELECT sum(id), generate_series(1, 2) AS g FROM sf_t ORDER BY g;
SELECT grp, count(*), generate_series(1, count(*)::integer) AS g FROM sf_t GROUP BY grp ORDER BY grp, g;
SELECT grp, generate_series(1, 2) AS g FROM sf_t GROUP BY grp HAVING count(*) > 1 ORDER BY grp, g;
-- In GROUP BY: evaluated before grouping.
SELECT generate_series(1, 2) AS g, count(*) FROM sf_t GROUP BY g ORDER BY g;
SELECT grp, count(*) FROM sf_t GROUP BY grp, generate_series(1, id) ORDER BY grp, 2;
SELECT grp, generate_series(1, 1) AS g, count(*) FROM sf_t GROUP BY 1, 2 HAVING count(*) > 1 ORDER BY 1;
-- With ORDER BY, DISTINCT and LIMIT.
SELECT id, generate_series(1, n) AS g FROM sf_t ORDER BY g DESC, id LIMIT 4;
SELECT DISTINCT generate_series(1, n) % 2 AS parity FROM sf_t ORDER BY 1;
SELECT id FROM sf_t WHERE id < 3 ORDER BY generate_series(1, 2), id;
SELECT generate_series(1, 10) AS g ORDER BY g LIMIT 3 OFFSET 2;
-- In a subquery's SELECT list.
SELECT * FROM (SELECT id, generate_series(1, n) AS g FROM sf_t) s WHERE g > 1 ORDER BY id, g;
SELECT count(*) FROM (SELECT generate_series(1, 100)) s;
SELECT id, (SELECT generate_series(1, 1)) AS one FROM sf_t ORDER BY id;
SELECT (SELECT generate_series(1, 2));
SELECT id FROM sf_t WHERE id IN (SELECT generate_series(2, 4)) ORDER BY id;
SELECT generate_series(1, 2) AS g UNION ALL SELECT generate_series(5, 6) ORDER BY 1;
WITH w AS (SELECT generate_series(1, 3) AS g) SELECT g, generate_series(1, g) AS h FROM w ORDER BY g, h;

-- In FROM: aliases, column alias lists, ROWS FROM, WITH ORDINALITY.
SELECT * FROM generate_series(1, 3) ORDER BY 1;
SELECT * FROM generate_series(1, 3) AS g ORDER BY g;
SELECT x FROM generate_series(1, 3) AS g(x) ORDER BY x;
SELECT g.x FROM generate_series(1, 3) AS g(x) ORDER BY 1;
SELECT * FROM generate_series(3, 1, -1) WITH ORDINALITY ORDER BY ordinality;
SELECT * FROM generate_series(3, 1, -1) WITH ORDINALITY AS g ORDER BY ordinality;
SELECT * FROM generate_series(3, 1, -1) WITH ORDINALITY AS g(v, o) ORDER BY o;
SELECT v FROM generate_series(3, 1, -1) WITH ORDINALITY AS g(v) ORDER BY v;
SELECT * FROM ROWS FROM (generate_series(1, 3), generate_series(10, 11)) ORDER BY 1;
SELECT * FROM ROWS FROM (generate_series(1, 2), generate_series(10, 13)) AS r ORDER BY 2;
SELECT * FROM ROWS FROM (generate_series(1, 2), generate_series(10, 13)) WITH ORDINALITY AS r(a, b, o) ORDER BY o;
SELECT * FROM ROWS FROM (generate_series(1, 2)) AS r ORDER BY 1;
SELECT * FROM ROWS FROM (generate_series(1, 2), generate_series(1.5, 2.5)) WITH ORDINALITY ORDER BY 3;
SELECT r.* FROM ROWS FROM (generate_series(1, 0), generate_series(1, NULL::int)) AS r;
SELECT generate_series.* FROM ROWS FROM (generate_series(1, 2), generate_series(3, 4)) ORDER BY 1;
SELECT count(*), sum(o) FROM generate_series(1, 1000) WITH ORDINALITY AS g(v, o);

-- LATERAL, explicit and implicit.
SELECT t.id, g FROM sf_t t, LATERAL generate_series(1, t.n) g ORDER BY t.id, g;
SELECT t.id, g FROM sf_t t, generate_series(1, t.n) g ORDER BY t.id, g;
SELECT t.id, g, o FROM sf_t t, generate_series(1, t.n) WITH ORDINALITY AS s(g, o) ORDER BY t.id, o;
SELECT t.id, a, b FROM sf_t t, ROWS FROM (generate_series(1, t.n), generate_series(1, 2)) AS r(a, b) ORDER BY t.id, b;
SELECT t.id, g FROM sf_t t LEFT JOIN LATERAL generate_series(1, t.n) g ON true ORDER BY t.id, g;
SELECT a, b FROM generate_series(1, 3) a, generate_series(a, 3) b ORDER BY a, b;

-- The SELECT list's other expressions are evaluated on each step of the
-- ProjectSet, the last (exhausted) one too; under ORDER BY a volatile one
-- is evaluated once per row instead.
CREATE SEQUENCE sf_seq;
SELECT nextval('sf_seq') AS n, generate_series(1, 3) AS g;
SELECT nextval('sf_seq') AS after;
SELECT nextval('sf_seq') AS n, generate_series(1, 3) AS g ORDER BY g;
SELECT nextval('sf_seq') AS after;
SELECT 10 / (x - 1), generate_series(1, x - 1) FROM (VALUES (1), (2)) v(x);
SELECT 10 / (x - 1) AS q, generate_series(1, x) AS g FROM (VALUES (2), (3)) v(x) ORDER BY x, g;
DROP SEQUENCE sf_seq;

-- An INSERT's single VALUES row is a SELECT list.
CREATE TABLE sf_ins (a integer, b integer DEFAULT 7, c serial);
INSERT INTO sf_ins VALUES (generate_series(1, 3), generate_series(10, 11));
INSERT INTO sf_ins (a) VALUES (generate_series(5, 6)) RETURNING a, b;
INSERT INTO sf_ins VALUES (generate_series(1, 2)), (3);
SELECT * FROM sf_ins ORDER BY a, b;
DROP TABLE sf_ins;

-- Rejected, as PostgreSQL rejects them.
SELECT id FROM sf_t WHERE generate_series(1, 2) > 1;
SELECT * FROM sf_t a JOIN sf_t b ON generate_series(1, 2) = a.id;
SELECT grp FROM sf_t GROUP BY grp HAVING generate_series(1, 2) > 1;
SELECT CASE WHEN id > 1 THEN generate_series(1, 2) END FROM sf_t;
SELECT CASE generate_series(1, 2) WHEN 1 THEN 'one' ELSE 'other' END;
SELECT CASE WHEN true THEN 1 ELSE generate_series(1, 2) END;
SELECT CASE WHEN generate_series(1, 2) = 1 THEN 1 END;
SELECT coalesce(generate_series(1, 2), 0);
SELECT coalesce(1, generate_series(1, generate_series(1, 2)));
SELECT sum(generate_series(1, 3));
SELECT count(*) FILTER (WHERE generate_series(1, 2) > 0) FROM sf_t;
SELECT 1 LIMIT generate_series(1, 2);
SELECT generate_series(1, 3) IN (1, 2) AS within, generate_series(1, 3) AS g ORDER BY g;
SELECT generate_series(1, 2) IN (1);
SELECT generate_series(1, 2) BETWEEN 1 AND 2;
SELECT generate_series(1, 2) NOT BETWEEN 1 AND 2;
SELECT NOT (generate_series(1, 2) > 1);
SELECT generate_series(1, 2) IN (1, id) FROM sf_t;
VALUES (generate_series(1, 2));
SELECT * FROM generate_series(1, generate_series(1, 2));
SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(a, b, c);
SELECT * FROM ROWS FROM (generate_series(1, 2), generate_series(1, 2)) AS r(a, b, c);
SELECT * FROM generate_series(1, 2) AS g(a, b);
UPDATE sf_t SET n = generate_series(1, 2);
SELECT * FROM generate_series(1, 3, 0);
SELECT generate_series(1, 3, 0);

DROP TABLE sf_t;
