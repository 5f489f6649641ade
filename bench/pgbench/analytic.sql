\set lo random(1, 990000)
\set k random(1, 100)
\set r random(0, 9)
SELECT count(*), sum(amount), avg(amount) FROM sales WHERE id BETWEEN :lo AND :lo + 10000;
SELECT region, count(*), sum(amount) FROM sales WHERE product = :k GROUP BY region ORDER BY region;
SELECT p.category, count(*), max(s.amount) FROM sales s JOIN products p ON s.product = p.product WHERE s.region = :r AND s.id < :lo GROUP BY p.category ORDER BY p.category;
