-- Arrays of domains: columns of dom[], literals and casts to dom[] check
-- each element against the domain; subscripts read the domain, assignments
-- to an element coerce to it; COPY checks the elements too.
create domain da_pos as int4 check (value > 0);
create domain da_vc4 as varchar(4);
create domain da_nn as int not null;
create table da_t (f1 da_pos[]);
insert into da_t values (array[42]);
insert into da_t values (array[-1]);
insert into da_t values ('{0}');
insert into da_t values ('{1,NULL,3}');
update da_t set f1[1] = f1[1] + 1;
update da_t set f1[1] = 0;
update da_t set f1 = f1 || -1;
update da_t set f1 = array_append(f1, -1);
select f1, f1[1], pg_typeof(f1), pg_typeof(f1[1]), pg_typeof(f1[1:1]) from da_t order by 1;
select f1 from da_t where f1 = '{2,NULL,3}';
select f1 from da_t where 43 = any(f1);
select unnest(f1) from da_t order by 1;
copy da_t from stdin;
{5,6}
\.
copy da_t from stdin;
{7,-8}
\.
select count(*) from da_t;
select format_type(atttypid, atttypmod) from pg_attribute where attrelid = 'da_t'::regclass and attnum > 0;
select t.typname, t.typelem::regtype, t.typcategory, t.typtype, d.typarray = t.oid as is_array
  from pg_type t join pg_type d on d.oid = t.typelem where t.typname = '_da_pos';
select 'da_pos[]'::regtype, pg_typeof('{1}'::da_pos[]);
-- casts
select '{1,2}'::da_pos[];
select '{1,-2}'::da_pos[];
select array[1,-3]::da_pos[];
select '{1,2}'::text[]::da_pos[];
select '{1,-2}'::text[]::da_pos[];
select '{4,5}'::da_pos[]::int[] as back, '{4,5}'::da_pos[]::text[] as txt;
select '{1,NULL}'::da_nn[];
select array[null]::da_nn[];
select '{}'::da_pos[];
-- a typmod'd base: assignment checks the length, an explicit cast truncates
create table da_v (f1 da_vc4[]);
insert into da_v values (array['too long']);
insert into da_v values (array['too long']::da_vc4[]);
insert into da_v values ('{ab,abcd}');
select f1, pg_typeof(f1[1]) from da_v order by f1;
-- a domain over an array of a domain
create domain da_pos_arr as da_pos[] check (array_length(value, 1) < 3);
select '{1,2}'::da_pos_arr;
select '{1,2,3}'::da_pos_arr;
select '{1,-2}'::da_pos_arr;
-- assignments to a field of an element: of an array of a composite in a
-- domain, and of an array of a domain over a composite
create type da_comp as (r float8, i float8);
create domain da_compa as da_comp[];
create table da_c (d1 da_compa);
insert into da_c values (array[row(1,2)]::da_compa);
insert into da_c values (array[row(3,4), row(5,6)]::da_comp[]);
insert into da_c (d1[1]) values (row(9,10));
insert into da_c (d1[1].r) values (11);
select d1, d1[2], d1[1].r, d1[1].i from da_c order by 1;
update da_c set d1[2] = row(d1[2].i, d1[2].r);
update da_c set d1[1].r = d1[1].r + 1 where d1[1].i > 0;
select * from da_c order by 1;
alter domain da_compa add constraint c1 check (value[1].r <= value[1].i);
insert into da_c (d1[1].r) values (99);
insert into da_c (d1[1].r, d1[1].i) values (99, 100);
insert into da_c (d1[1].r, d1[1].i) values (100, 99);
update da_c set d1[1].r = d1[1].r + 1 where d1[1].i > 0;
update da_c set d1[1].r = d1[1].r - 1, d1[1].i = d1[1].i + 1 where d1[1].i > 0;
select * from da_c order by 1;
update da_c set d1[1:1].r = 1;
update da_c set d1[1].zz = 1;
create table da_i (a int, b int[]);
update da_i set a.x = 1;
update da_i set b[1].x = 1;
create type da_comp2 as (cf1 int, cf2 int);
create domain da_dcomp2 as da_comp2 check ((value).cf1 > 0);
create table da_c2 (f1 da_dcomp2[]);
insert into da_c2 values (null);
update da_c2 set f1[1].cf2 = 5;
table da_c2;
update da_c2 set f1[1].cf1 = -1;
update da_c2 set f1[1].cf1 = 1;
table da_c2;
drop table da_c, da_i, da_c2;
drop domain da_compa, da_dcomp2;
drop type da_comp, da_comp2;
drop table da_t;
drop table da_v;
drop domain da_pos_arr;
drop domain da_pos;
drop domain da_vc4;
drop domain da_nn;
