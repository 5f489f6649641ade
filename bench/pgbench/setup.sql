-- Data for analytic.sql: 1,000,000 sales rows over 100 products, 10 regions
-- and 3 years (same SQL for joind and PostgreSQL).
drop table if exists sales;
drop table if exists products;
create table sales as
select g as id,
       (g::int8 * 7919 % 100 + 1)::int as product,
       (g::int8 * 104729 % 10)::int as region,
       (g::int8 * 31 % 10000) / 100.0 as amount,
       date '2022-01-01' + (g % 1095) as day
from generate_series(1, 1000000) g;
create table products as
select p as product, 'product ' || p as name, (p % 5) as category
from generate_series(1, 100) p;
