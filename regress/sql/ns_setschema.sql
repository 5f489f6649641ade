SET DateStyle = 'ISO, MDY'; SET TimeZone = 'UTC'; SET IntervalStyle = 'postgres';
-- ALTER TABLE / VIEW / SEQUENCE ... SET SCHEMA, and the sequences a table's
-- columns own following RENAME and SET SCHEMA (alter_table, create_view).
create schema alter1;
create schema alter2;
create table alter1.t1(f1 serial primary key, f2 int check (f2 > 0));
create view alter1.v1 as select * from alter1.t1;
create table alter1.ref(a int references alter1.t1);
insert into alter1.t1(f2) values(11);
insert into alter1.t1(f2) values(12);
alter table alter1.t1 set schema alter1; -- no-op, same schema
alter table alter1.t1 set schema alter2;
alter table alter1.v1 set schema alter2;
alter table alter1.ref set schema alter2;
select pg_get_serial_sequence('alter2.t1', 'f1');
insert into alter2.t1(f2) values(13);
insert into alter2.t1(f2) values(14);
select * from alter2.t1 order by f1;
select * from alter2.v1 order by f1;
select relname, nspname from pg_class c join pg_namespace n on n.oid = c.relnamespace where nspname like 'alter%' order by 1;
insert into alter2.ref values (99);
alter table if exists nosuch set schema alter2;
alter table alter2.t1 set schema nosuch;
create table public.t1(x int);
alter table t1 set schema alter2;
alter view alter2.t1 set schema alter1;
alter sequence alter2.t1_f1_seq set schema alter1;
create sequence alter2.s1;
alter sequence alter2.s1 set schema public;
select nextval('s1');
create temp table tt(a int);
alter table tt set schema alter1;
alter table pg_class set schema alter1;
begin;
alter table alter2.t1 rename to t2;
insert into alter2.t2(f2) values(15) returning f1;
alter table alter2.t2 rename column f1 to g1;
select pg_get_serial_sequence('alter2.t2', 'g1');
commit;
drop schema alter1;
drop schema alter2 cascade;
drop table t1;
drop sequence s1;
-- a renamed table's serial sequence stays owned: DROP TABLE drops it
CREATE TABLE rn_t (a serial, b int);
ALTER TABLE rn_t RENAME TO rn_u;
ALTER TABLE rn_u RENAME COLUMN a TO z;
SELECT pg_get_serial_sequence('rn_u', 'z');
INSERT INTO rn_u (b) VALUES (1) RETURNING z;
DROP TABLE rn_u;
SELECT count(*) FROM pg_class WHERE relname = 'rn_t_a_seq';
-- a view reading a moved table follows it
CREATE SCHEMA mv_s;
CREATE TABLE mv_t (a int, b text);
INSERT INTO mv_t VALUES (1, 'x');
CREATE VIEW mv_v AS SELECT b FROM mv_t;
ALTER TABLE mv_t SET SCHEMA mv_s;
SELECT * FROM mv_v;
DROP SCHEMA mv_s CASCADE;
