SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- Inner joins of many relations, reordered by estimated cost (bushy trees,
-- components joined by cross products, conditions over three relations):
-- the answers must not depend on the order chosen.
CREATE TABLE jr_region (r_key int, r_name text);
CREATE TABLE jr_nation (n_key int, n_name text, n_region int);
CREATE TABLE jr_supp (s_key int, s_nation int, s_name text);
CREATE TABLE jr_cust (c_key int, c_nation int, c_seg text);
CREATE TABLE jr_ord (o_key int, o_cust int, o_date date);
CREATE TABLE jr_line (l_ord int, l_supp int, l_part int, l_qty numeric);
CREATE TABLE jr_part (p_key int, p_type text);
INSERT INTO jr_region VALUES (1, 'EAST'), (2, 'WEST'), (NULL, 'NOWHERE');
INSERT INTO jr_nation SELECT g, 'N' || g, 1 + g % 2 FROM generate_series(1, 6) g;
INSERT INTO jr_nation VALUES (7, 'N7', NULL), (NULL, 'NX', 1);
INSERT INTO jr_supp SELECT g, 1 + g % 7, 'S' || g FROM generate_series(1, 20) g;
INSERT INTO jr_supp VALUES (21, NULL, 'S21');
INSERT INTO jr_cust SELECT g, 1 + g % 8, CASE WHEN g % 3 = 0 THEN 'BUILDING' ELSE 'AUTO' END FROM generate_series(1, 40) g;
INSERT INTO jr_ord SELECT g, 1 + g % 41, date '1995-01-01' + g FROM generate_series(1, 200) g;
INSERT INTO jr_ord VALUES (201, NULL, NULL);
INSERT INTO jr_line SELECT 1 + g % 202, 1 + g % 22, 1 + g % 31, (g % 50) / 2.0 FROM generate_series(1, 1000) g;
INSERT INTO jr_line VALUES (NULL, 1, 1, 1), (1, NULL, 1, 1), (1, 1, NULL, 1);
INSERT INTO jr_part SELECT g, CASE WHEN g % 4 = 0 THEN 'BRASS' ELSE 'STEEL' END FROM generate_series(1, 30) g;
ANALYZE;
-- TPC-H Q5's shape: customer and supplier share only the nation key
SELECT n_name, count(*), sum(l_qty)
FROM jr_cust, jr_ord, jr_line, jr_supp, jr_nation, jr_region
WHERE c_key = o_cust AND l_ord = o_key AND l_supp = s_key AND c_nation = s_nation
  AND s_nation = n_key AND n_region = r_key AND r_name = 'EAST'
  AND o_date >= date '1995-02-01' AND o_date < date '1995-02-01' + interval '3' month
GROUP BY n_name ORDER BY n_name;
-- TPC-H Q7's shape: two copies of one table, an OR over both
SELECT n1.n_name AS supp_nation, n2.n_name AS cust_nation, count(*), sum(l_qty)
FROM jr_supp, jr_line, jr_ord, jr_cust, jr_nation n1, jr_nation n2
WHERE s_key = l_supp AND o_key = l_ord AND c_key = o_cust AND s_nation = n1.n_key AND c_nation = n2.n_key
  AND ((n1.n_name = 'N1' AND n2.n_name = 'N2') OR (n1.n_name = 'N2' AND n2.n_name = 'N1'))
GROUP BY 1, 2 ORDER BY 1, 2;
-- TPC-H Q8's shape: eight relations
SELECT extract(year FROM o_date) AS y, sum(CASE WHEN n2.n_name = 'N3' THEN l_qty ELSE 0 END), sum(l_qty)
FROM jr_part, jr_supp, jr_line, jr_ord, jr_cust, jr_nation n1, jr_nation n2, jr_region
WHERE p_key = l_part AND s_key = l_supp AND l_ord = o_key AND o_cust = c_key AND c_nation = n1.n_key
  AND n1.n_region = r_key AND r_name = 'WEST' AND s_nation = n2.n_key AND p_type = 'BRASS'
GROUP BY 1 ORDER BY 1;
-- a condition over three relations, and one over none
SELECT count(*), sum(l_qty)
FROM jr_line, jr_ord, jr_cust, jr_supp
WHERE l_ord = o_key AND o_cust = c_key AND l_supp + c_nation = s_key + 1 AND s_name <> 'S3' AND 1 < 2;
-- two components: a cross product between them
SELECT count(*), min(r_name), max(p_type)
FROM jr_region, jr_nation, jr_part, jr_line
WHERE r_key = n_region AND p_key = l_part AND l_qty > 20;
-- inner joins inside a correlated subquery read the outer row
SELECT c_key, (SELECT count(*) FROM jr_ord, jr_line, jr_supp, jr_nation
               WHERE o_key = l_ord AND l_supp = s_key AND s_nation = n_key AND o_cust = c.c_key AND n_key = c.c_nation)
FROM jr_cust c WHERE c_key <= 8 ORDER BY c_key;
-- an outer join is a barrier; the inner joins on both sides are reordered
SELECT n_name, count(o_key), count(l_ord)
FROM jr_nation LEFT JOIN (jr_cust JOIN jr_ord ON c_key = o_cust JOIN jr_line ON l_ord = o_key) ON c_nation = n_key
GROUP BY n_name ORDER BY n_name;
DROP TABLE jr_region, jr_nation, jr_supp, jr_cust, jr_ord, jr_line, jr_part;
