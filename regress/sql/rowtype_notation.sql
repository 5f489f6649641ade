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
