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
\set lo 2
\set label 'it''s'
select :lo + 1 as three, :'label' as quoted, :"label" is null as ident_missing;
select max(id) as maxid, min(name) as minname from pc \gset
\echo maxid=:maxid minname=:minname
select :maxid * 2 as doubled;
\set ON_ERROR_STOP 1
select 1/0;
select 'not reached';
