-- psql features against a server: \copy, variables, \gset, ON_ERROR_STOP.
\set ON_ERROR_STOP 0
drop table if exists pc;
create table pc (id int not null, name text, price numeric(8,2), day date);
\copy pc from 'DATADIR/pc.csv' with (format csv, header)
\copy pc (id, name) from 'DATADIR/pc.txt'
select * from pc order by id;
\copy (select id, name, price from pc where price is not null order by id) to 'DATADIR/out.csv' with csv header
\! cat DATADIR/out.csv
\copy pc to stdout
\copy pc (id, name) from 'DATADIR/bad.txt'
select count(*) from pc;
-- COPY FROM STDIN inline, with CSV options.
create table opts (a int, b text, c numeric);
copy opts from stdin with (format csv, delimiter '|', null 'NA', quote '''', header true);
a|b|c
1|'x|y'|1.5
2|NA|NA
3|''|0
\.
copy opts (a, b) from stdin with (format csv, force_not_null (b));
4,
5,"q""uote"
\.
copy opts from stdin;
6	tab	2
7	\N	\N
\.
copy (select * from opts order by a) to stdout with (format csv, force_quote (b), null 'NULL');
copy (select a, b from opts where a > 3 order by a) to stdout with (format text, delimiter ',');
copy opts from stdin with (format csv);
8,eight,1
9,nine,x
\.
copy opts from stdin;
10	ten
\.
select count(*) from opts;
copy opts (a, nosuch) from stdin;
copy nosuch from stdin;
\set lo 2
\set label 'it''s'
select :lo + 1 as three, :'label' as quoted, :"label" is null as ident_missing;
select max(id) as maxid, min(name) as minname from pc \gset
\echo maxid=:maxid minname=:minname
select :maxid * 2 as doubled;
\set ON_ERROR_STOP 1
select 1/0;
select 'not reached';
