--
-- srf_coldeflist: column definition lists on FROM functions
-- (f(...) AS t(a int), ROWS FROM (f(...) AS (a int))): PostgreSQL allows them
-- only for functions returning record, which none of these is, and checks
-- their shape (ROWS FROM with several functions, WITH ORDINALITY) first.
--
SET DateStyle = 'ISO, MDY';
SET TimeZone = 'UTC';
SET IntervalStyle = 'postgres';

select * from generate_series(1,3) as t(a int);
select * from generate_series(1,3) as (a int);
select * from generate_series(1,3) with ordinality as t(a int, b int);
select * from rows from (generate_series(1,3) as (a int));
select * from rows from (generate_series(1,3), generate_series(1,2) as (a int, b text)) as t;
select * from rows from (generate_series(1,3)) as t(a int);
select * from rows from (generate_series(1,3), generate_series(1,4)) as t(a int);
select * from rows from (generate_series(1,3) as (a int)) with ordinality;
select * from generate_series(1,3) as t(a int, b nosuchtype);
select * from generate_series(1,nosuch) as t(a int);
select * from generate_series(1,3) as t(a);
select * from pg_get_keywords() as t(a text);
select * from generate_series('a',3) as t(a int);
select * from generate_series(1, 3) as t(a) order by a;
select * from rows from (generate_series(1, 2), generate_series(1, 3) as (b int)) with ordinality as t order by 3;
select * from generate_series('2020-01-01'::timestamp, '2020-01-02', '1 day') as t(a timestamp);
