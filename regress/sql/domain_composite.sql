-- Domains over composite types, and domain constraints checked where no
-- bound coercion reaches them: json[b]_populate_record's fields and results,
-- subscripted and field assignments to a domain column.
create type dc_pair as (x int, y int);
create domain dc_ordered as dc_pair check ((value).x <= (value).y);
select row(1,2)::dc_ordered;
select row(2,1)::dc_ordered;
select (row(3,4)::dc_ordered).y;
-- populate_record with a domain result
select json_populate_record(null::dc_ordered, '{"x": 0, "y": 1}');
select json_populate_record(row(1,2)::dc_ordered, '{"x": 0}');
select json_populate_record(row(1,2)::dc_ordered, '{"x": 1, "y": 0}');
select jsonb_populate_record(row(1,2)::dc_ordered, '{"y": 5}');
select jsonb_populate_record(row(1,2)::dc_ordered, '{"x": 7}');
select json_populate_recordset(row(1,2)::dc_ordered, '[{"x": 0}, {"y": 3}]');
select json_populate_recordset(row(1,2)::dc_ordered, '[{"x": 0}, {"x": 5}]');
select * from jsonb_populate_recordset(row(1,2)::dc_ordered, '[{"x": 1, "y": 0}]');
-- domain fields of a populated record
create domain dc_int3 as int[] check (array_length(value, 1) = 3);
create domain dc_pos as int check (value > 0);
create type dc_rec as (a dc_int3, p dc_pos, o dc_ordered);
select a from json_populate_record(null::dc_rec, '{"a": [1, "2", null]}') q;
select a from json_populate_record(null::dc_rec, '{"a": [1, 2]}') q;
select p from jsonb_populate_record(null::dc_rec, '{"p": 4}') q;
select p from jsonb_populate_record(null::dc_rec, '{"p": -4}') q;
select o from jsonb_populate_record(null::dc_rec, '{"o": {"x": 1, "y": 2}}') q;
select o from jsonb_populate_record(null::dc_rec, '{"o": {"x": 3, "y": 2}}') q;
select * from json_populate_recordset(null::dc_rec, '[{"p": 1}, {"p": 0}]') q;
-- columns of the domain, field assignments checked after the last one
create table dc_t (d dc_ordered);
insert into dc_t values (row(1,2));
insert into dc_t values (row(3,2));
insert into dc_t (d.x, d.y) values (1, 5);
insert into dc_t (d.x, d.y) values (9, 5);
update dc_t set d.x = (d).x + 10;
update dc_t set d.x = (d).x + 10, d.y = (d).y + 10;
select * from dc_t order by (d).x, (d).y;
-- element assignment to a domain over an array
create domain dc_orderedarr as int[] check (value[1] < value[2]);
create table dc_a (f dc_orderedarr);
insert into dc_a values (array[1,2]);
update dc_a set f[2] = 3;
update dc_a set f[2] = 0;
update dc_a set f[2] = 0, f[1] = -1;
select * from dc_a;
drop table dc_t;
drop table dc_a;
drop type dc_rec;
-- altering the composite a domain's check reads
alter type dc_pair alter attribute x type text;
alter type dc_pair alter attribute x type bigint;
alter type dc_pair drop attribute y;
select row(5,6)::dc_ordered;
alter type dc_pair drop attribute x;
drop domain dc_orderedarr;
drop domain dc_int3;
drop domain dc_pos;
drop domain dc_ordered;
drop type dc_pair;
-- ALTER DOMAIN refuses a domain inside a column's composite type
create domain dc_posint as int4;
create type dc_holder as (f1 dc_posint);
create table dc_h (f1 dc_holder);
insert into dc_h values (row(-1));
alter domain dc_posint add constraint c1 check (value >= 0);
alter domain dc_posint set not null;
drop table dc_h;
create domain dc_holderd as dc_holder;
create table dc_h (f1 dc_holderd);
insert into dc_h values ('(-1)');
alter domain dc_posint add constraint c1 check (value >= 0);
drop table dc_h;
drop domain dc_holderd;
create table dc_h (f1 dc_holder[]);
alter domain dc_posint add constraint c1 check (value >= 0);
drop table dc_h;
alter domain dc_posint add constraint c1 check (value >= 0);
select row(-1)::dc_holder;
drop type dc_holder;
drop domain dc_posint;
-- a function returning a domain over a composite: in FROM its fields are the columns
create type rd_comptype as (r float8, i float8);
create domain rd_dcomptype as rd_comptype check ((value).r > (value).i);
create function rd_makedcomp(r float8, i float8) returns rd_dcomptype
as 'select row(r, i)' language sql;
select rd_makedcomp(2,1);
select rd_makedcomp(1,2);
select * from rd_makedcomp(2,1) m;
select * from rd_makedcomp(1,2) m;
select m, m is not null from rd_makedcomp(2,1) m;
select m.r, i from rd_makedcomp(5,1) m;
select * from rd_makedcomp(5,1) m(a, b);
select m from rd_makedcomp(5,1) m(a, b);
drop function rd_makedcomp(float8, float8);
drop type rd_comptype cascade;
