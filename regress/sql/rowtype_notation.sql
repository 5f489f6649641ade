-- Functional notation for a field (f(x) is x.f), function-style casts of
-- rows to string types (none), a table's row type under column aliases,
-- and several subscripted targets of one column in INSERT.
create table rn_name (first text, last text, n int);
insert into rn_name values ('Joe', 'Blow', 1), ('Ann', 'Lee', 2);
select last(f) from rn_name f order by 1;
select first(rn_name), n(rn_name) + 1 from rn_name order by 1;
select length(f) from rn_name f;
select upper(last(f)) from rn_name f order by 1;
select text(rn_name) from rn_name;
select text(row('Jim', 'Beam'));
select varchar(row('Jim', 'Beam'));
select text(n) from rn_name order by 1;
select row_to_json(i) from rn_name i(x, y) order by 1;
select row_to_json(i) from rn_name i(x) order by 1;
select (i).x, i.y from rn_name i(x, y) order by 1;
select to_jsonb(i) from rn_name as i order by 1;
create table rn_arr (a int[], b text[]);
insert into rn_arr (a[1], a[3]) values (11, 22);
insert into rn_arr (a[2], b[1], a[1]) values (2, 'x', 1);
insert into rn_arr (a, a[3]) values ('{1}', 22);
insert into rn_arr (a[3], a) values (22, '{1}');
select * from rn_arr order by 1;
drop table rn_arr;
drop table rn_name;
-- functional and column notation: f.fn calls fn(f) when f has no column fn;
-- fn(f) calls the function even when f has a column fn
create table rn_fullname (first text, last text);
insert into rn_fullname values ('Joe', 'Blow');
select f.last from rn_fullname f;
select last(f) from rn_fullname f;
create function longname(rn_fullname) returns text language sql
as $$select $1.first || ' ' || $1.last$$;
select f.longname from rn_fullname f;
select longname(f) from rn_fullname f;
select rn_fullname.longname from rn_fullname;
select f.nosuch from rn_fullname f;
alter table rn_fullname add column longname text;
select f.longname from rn_fullname f;
select longname(f) from rn_fullname f;
select longname(rn_fullname) from rn_fullname;
drop function longname(rn_fullname);
drop table rn_fullname;
