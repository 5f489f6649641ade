SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- OR clauses: a conjunct common to every arm is factored out
-- ((A AND B) OR (A AND C) = A AND (B OR C), exact in three-valued logic),
-- and ORs over two join inputs restrict each input by the OR of its parts.
CREATE TABLE oc_p (pk int, brand text, size int, container text);
CREATE TABLE oc_l (pk int, qty numeric, mode text, price numeric);
INSERT INTO oc_p VALUES (1, 'B12', 3, 'SM BOX'), (2, 'B23', 8, 'MED BAG'), (3, 'B34', 12, 'LG CASE'),
  (4, 'B12', NULL, 'SM BOX'), (5, NULL, 3, 'SM BOX'), (NULL, 'B12', 3, 'SM BOX'), (6, 'B23', 30, NULL);
INSERT INTO oc_l VALUES (1, 5, 'AIR', 10.5), (1, 15, 'AIR', 20.25), (2, 12, 'AIR REG', 30), (3, 25, 'AIR', 40),
  (4, 5, 'AIR', 50), (5, 5, NULL, 60), (NULL, 5, 'AIR', 70), (2, NULL, 'AIR', 80), (6, 15, 'AIR', 90),
  (3, 25, 'RAIL', 100), (1, 5, 'AIR', NULL);
-- TPC-H Q19's shape: the join key repeated in every arm becomes a hash join key
SELECT sum(price) AS revenue, count(*)
FROM oc_l, oc_p
WHERE (oc_p.pk = oc_l.pk AND brand = 'B12' AND container IN ('SM BOX', 'SM CASE') AND qty >= 1 AND qty <= 11
       AND size BETWEEN 1 AND 5 AND mode IN ('AIR', 'AIR REG'))
   OR (oc_p.pk = oc_l.pk AND brand = 'B23' AND container IN ('MED BAG', 'MED BOX') AND qty >= 10 AND qty <= 20
       AND size BETWEEN 1 AND 10 AND mode IN ('AIR', 'AIR REG'))
   OR (oc_p.pk = oc_l.pk AND brand = 'B34' AND container IN ('LG CASE', 'LG BOX') AND qty >= 20 AND qty <= 30
       AND size BETWEEN 1 AND 15 AND mode IN ('AIR', 'AIR REG'));
SELECT oc_l.pk, qty, mode, price, brand, size
FROM oc_l JOIN oc_p ON (oc_p.pk = oc_l.pk AND brand = 'B12') OR (oc_p.pk = oc_l.pk AND size > 5)
ORDER BY oc_l.pk, qty, price;
-- NULLs: a common conjunct that is NULL makes the whole OR NULL (not true) either way
SELECT oc_p.pk, brand, size FROM oc_p
WHERE (size > 2 AND brand = 'B12') OR (size > 2 AND container = 'SM BOX')
ORDER BY oc_p.pk, brand, size;
SELECT oc_p.pk, brand, size FROM oc_p
WHERE NOT ((size > 2 AND brand = 'B12') OR (size > 2 AND container = 'SM BOX'))
ORDER BY oc_p.pk, brand, size;
SELECT oc_p.pk, ((size > 2 AND brand = 'B12') OR (size > 2 AND container = 'SM BOX')) AS v FROM oc_p
ORDER BY oc_p.pk, v;
-- absorption: A OR (A AND B) is A
SELECT oc_p.pk FROM oc_p WHERE (brand = 'B12') OR (brand = 'B12' AND size = 3) ORDER BY oc_p.pk;
SELECT oc_p.pk FROM oc_p WHERE (brand = 'B12' AND size = 3) OR (brand = 'B12') OR (brand = 'B12' AND container IS NULL)
ORDER BY oc_p.pk;
-- outer joins: the factored key joins, the rest stays in the condition
SELECT oc_l.pk, qty, price, oc_p.pk AS ppk, brand
FROM oc_l LEFT JOIN oc_p ON (oc_p.pk = oc_l.pk AND brand = 'B12') OR (oc_p.pk = oc_l.pk AND qty > 10)
ORDER BY oc_l.pk, qty, price, ppk;
SELECT oc_l.pk, qty, price, oc_p.pk AS ppk, brand
FROM oc_p RIGHT JOIN oc_l ON (oc_p.pk = oc_l.pk AND brand = 'B12') OR (oc_p.pk = oc_l.pk AND qty > 10)
ORDER BY oc_l.pk, qty, price, ppk;
SELECT oc_l.pk AS lpk, qty, oc_p.pk AS ppk, brand
FROM oc_l FULL JOIN oc_p ON (oc_p.pk = oc_l.pk AND brand = 'B23') OR (oc_p.pk = oc_l.pk AND qty = 25)
ORDER BY lpk, qty, ppk, brand;
-- TPC-H Q7's shape: each arm restricts both inputs
SELECT a.pk AS apk, b.pk AS bpk, a.brand, b.brand
FROM oc_p a JOIN oc_p b ON a.size = b.size
WHERE (a.brand = 'B12' AND b.brand IS NULL) OR (a.brand IS NULL AND b.brand = 'B12')
ORDER BY apk, bpk;
-- an arm's part that could fail stays in the join (it fails for no row here)
SELECT oc_l.pk, qty FROM oc_l JOIN oc_p ON oc_p.pk = oc_l.pk
WHERE (10 / (oc_p.size + 100) >= 0 AND oc_l.mode = 'AIR') OR (oc_p.brand = 'B23' AND oc_l.mode = 'AIR REG')
ORDER BY oc_l.pk, qty;
-- volatile arms are not merged (checked for the rows they keep, not their values)
SELECT count(*) <= 7 AS ok FROM oc_p WHERE (random() < 2 AND brand = 'B12') OR (random() < 2 AND size = 3);
-- in an EXISTS subquery's condition
SELECT oc_p.pk FROM oc_p WHERE EXISTS (
  SELECT 1 FROM oc_l WHERE (oc_l.pk = oc_p.pk AND qty = 5) OR (oc_l.pk = oc_p.pk AND mode = 'AIR REG'))
ORDER BY oc_p.pk;
DROP TABLE oc_p;
DROP TABLE oc_l;
