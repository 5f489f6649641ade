-- text_pattern_ops' and bpchar_pattern_ops' operators, alone and in row comparisons
select 'a'::text ~<=~ 'b'::text, 'a' ~<~ 'b', 'b' ~>~ 'a', 'ab' ~>=~ 'abc', 'é' ~<~ 'z';
select 'ab '::char(4) ~<=~ 'ab'::char(2), 'ab '::char(4) ~<~ 'ab'::char(2), 'a'::char(3) ~>=~ 'b';
select ROW('ABC','DEF') ~<=~ ROW('DEF','ABC') as true;
select ROW('ABC','DEF') ~>=~ ROW('DEF','ABC') as false;
select ROW('ABC','DEF') ~<~ ROW('ABC','DEF') as f, ROW('ABC','DEF') ~<=~ ROW('ABC','DEF') as t;
select ROW('ABC',null) ~<~ ROW('ABD','DEF'), ROW('ABC',null) ~<~ ROW('ABC','DEF');
select 'a'::text ~<~ null;
-- the pattern operators order as text_pattern_ops' btree members
select x from (values ('b'), ('a'), ('B'), (NULL), ('ä')) v(x) order by x using ~<~;
select x from (values ('b'), ('a'), ('B'), (NULL)) v(x) order by x using ~>~ nulls last;
select x from (values ('b '::char(3)), ('a'), ('ab')) v(x) order by x using ~<~;
select string_agg(x, ',' order by x using ~>~) from (values ('b'), ('a'), ('c')) v(x);
select x from (values (1), (2)) v(x) order by x using ~<~;
