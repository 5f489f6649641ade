-- COMMENT ON TYPE / DOMAIN / CONSTRAINT ... ON DOMAIN: kept with the type,
-- read by obj_description and pg_description; a user type without one has none.
create domain cd_d as int constraint c1 check (value > 0);
create type cd_e as enum ('a');
create type cd_c as (x int);
comment on domain cd_d is 'About to drop this..';
comment on type cd_e is 'an enum';
comment on type cd_c is 'a composite';
comment on type cd_d is 'via type';
comment on constraint c1 on domain cd_d is 'random commentary';
select obj_description('cd_d'::regtype, 'pg_type'), obj_description('cd_e'::regtype, 'pg_type'), obj_description('cd_c'::regtype, 'pg_type');
select conname, obj_description(oid, 'pg_constraint') from pg_constraint where contypid = 'cd_d'::regtype;
select d.description, c.relname from pg_description d join pg_class c on c.oid = d.classoid where d.objoid in ('cd_d'::regtype, 'cd_e'::regtype, 'cd_c'::regtype) order by 1;
select d.description from pg_description d join pg_constraint c on c.oid = d.objoid and d.classoid = 'pg_constraint'::regclass where c.contypid = 'cd_d'::regtype;
comment on domain cd_e is 'not a domain';
comment on domain cd_nope is 'x';
comment on type cd_nope is 'x';
comment on constraint nope on domain cd_d is 'x';
comment on constraint c1 on domain cd_e is 'x';
alter domain cd_d rename constraint c1 to c2;
select conname, obj_description(oid, 'pg_constraint') from pg_constraint where contypid = 'cd_d'::regtype;
comment on constraint c2 on domain cd_d is null;
comment on domain cd_d is '';
select obj_description('cd_d'::regtype, 'pg_type');
select conname, obj_description(oid, 'pg_constraint') from pg_constraint where contypid = 'cd_d'::regtype;
drop domain cd_d;
drop type cd_e, cd_c;
create domain cd_x as int; select obj_description('cd_x'::regtype, 'pg_type'), obj_description('cd_x[]'::regtype, 'pg_type'); drop domain cd_x;
