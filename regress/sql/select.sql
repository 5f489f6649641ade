--
-- select: projections, WHERE, ORDER BY, LIMIT/OFFSET, DISTINCT, column
-- naming and FROM-less SELECT.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

CREATE TABLE se_emp (id integer, name text, dept text, salary numeric(10,2), hired date, manager integer);
INSERT INTO se_emp VALUES
  (1, 'Ada', 'eng', 120000, '2019-03-01', NULL),
  (2, 'Brian', 'eng', 95000, '2020-07-15', 1),
  (3, 'Chen', 'sales', 70000, '2021-01-10', 1),
  (4, 'Dana', 'sales', 72000.50, '2018-11-30', 3),
  (5, 'Eve', NULL, 50000, '2022-05-05', 3),
  (6, 'Fay', 'ops', NULL, '2023-02-14', 1),
  (7, 'Gus', 'eng', 95000, NULL, 2),
  (8, 'hal', 'ops', 61000, '2020-07-15', 6);
CREATE TABLE se_dept (dept text, floor integer);
INSERT INTO se_dept VALUES ('eng', 3), ('sales', 1), ('ops', 2), ('legal', 4);

-- FROM-less SELECT and column naming
SELECT 1;
SELECT 1 AS one, 'two' AS two, 1 + 1, NULL AS nothing, true;
SELECT 1 AS "Mixed Case", 2 AS "select", 3 AS x, 4 y;
SELECT count(*), sum(1), max(2), lower('A'), 'lit'::text, 5::integer, CAST(6 AS bigint), (7), -8;
SELECT id, id * 2, id AS "id" FROM se_emp WHERE id = 1;

-- projections, * and t.*
SELECT * FROM se_dept ORDER BY floor;
SELECT se_dept.* FROM se_dept ORDER BY dept;
SELECT d.*, d.floor * 10 AS room FROM se_dept d ORDER BY d.floor DESC;
SELECT e.name, e.dept AS department, salary / 1000 AS k FROM se_emp AS e WHERE e.id <= 3 ORDER BY e.id;
SELECT x.* FROM se_dept;
SELECT se_dept.floor FROM se_dept d;

-- WHERE
SELECT name FROM se_emp WHERE salary > 70000 AND dept = 'eng' ORDER BY name;
SELECT name FROM se_emp WHERE salary IS NULL OR dept IS NULL ORDER BY name;
SELECT name FROM se_emp WHERE hired >= '2020-01-01' AND hired < '2021-06-01' ORDER BY hired, name;
SELECT name FROM se_emp WHERE NOT (dept = 'eng') ORDER BY name;
SELECT name FROM se_emp WHERE dept IN ('ops', 'sales') AND salary BETWEEN 60000 AND 71000 ORDER BY name;
SELECT name FROM se_emp WHERE name LIKE '_a%' ORDER BY 1;
SELECT name FROM se_emp WHERE false;
SELECT name FROM se_emp WHERE NULL;
SELECT name FROM se_emp WHERE salary;
SELECT name FROM se_emp WHERE 1;

-- ORDER BY
SELECT name, salary FROM se_emp ORDER BY salary, name;
SELECT name, salary FROM se_emp ORDER BY salary DESC, name;
SELECT name, salary FROM se_emp ORDER BY salary NULLS FIRST, name;
SELECT name, salary FROM se_emp ORDER BY salary DESC NULLS LAST, name DESC;
SELECT name, dept FROM se_emp ORDER BY dept ASC NULLS FIRST, name ASC;
SELECT name, hired FROM se_emp ORDER BY 2, 1;
SELECT name AS who, salary * 1.1 AS raised FROM se_emp ORDER BY raised NULLS FIRST, who;
SELECT name FROM se_emp ORDER BY length(name) DESC, name;
SELECT name FROM se_emp ORDER BY lower(name) DESC;
SELECT name FROM se_emp ORDER BY manager NULLS FIRST, id DESC;
SELECT name FROM se_emp ORDER BY salary IS NULL, hired DESC NULLS LAST, name;
SELECT name FROM se_emp ORDER BY 3;
SELECT name FROM se_emp ORDER BY nosuch;

-- LIMIT and OFFSET
SELECT id, name FROM se_emp ORDER BY id LIMIT 3;
SELECT id, name FROM se_emp ORDER BY id LIMIT 3 OFFSET 2;
SELECT id, name FROM se_emp ORDER BY id OFFSET 6;
SELECT id, name FROM se_emp ORDER BY id LIMIT 0;
SELECT id, name FROM se_emp ORDER BY id LIMIT ALL OFFSET 7;
SELECT id, name FROM se_emp ORDER BY id DESC LIMIT 2 OFFSET 100;
SELECT id FROM se_emp ORDER BY id FETCH FIRST 2 ROWS ONLY;
SELECT id FROM se_emp ORDER BY id LIMIT -1;

-- DISTINCT
SELECT DISTINCT dept FROM se_emp ORDER BY dept NULLS FIRST;
SELECT DISTINCT dept, salary FROM se_emp WHERE dept = 'eng' ORDER BY salary;
SELECT DISTINCT hired FROM se_emp ORDER BY hired DESC NULLS LAST;
SELECT count(*) FROM (SELECT DISTINCT salary FROM se_emp) s;

-- ambiguity and scoping errors
SELECT dept FROM se_emp, se_dept;
SELECT dept FROM se_emp JOIN se_dept ON se_emp.dept = se_dept.dept;
SELECT e.dept, d.floor FROM se_emp e JOIN se_dept d ON e.dept = d.dept WHERE e.id = 1;
SELECT name FROM se_emp e WHERE se_emp.id = 1;
SELECT * FROM se_emp e, se_emp e;

-- expressions over rows
SELECT name, CASE WHEN salary >= 90000 THEN 'high' WHEN salary >= 60000 THEN 'mid' ELSE 'low or unknown' END AS band
  FROM se_emp ORDER BY id;
SELECT id, COALESCE(dept, '(none)') AS dept, extract(year from hired) AS yr FROM se_emp ORDER BY yr NULLS LAST, id;

DROP TABLE se_emp;
DROP TABLE se_dept;
