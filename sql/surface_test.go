package sql

import (
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
)

// TestSurface lists the parse-tree features PostgreSQL's grammar accepts
// and how joind binds each: "" binds (joind gives PostgreSQL's answer,
// checked against PostgreSQL in regress/sql/unsupported.sql where it
// returns rows), otherwise the SQLSTATE it fails with. A feature joind
// lacks must be 0A000 — never bound with a field silently ignored.
// Tables: testCatalog (t(a int not null, b text, c numeric), u(a int, d
// text), w(x int default 7, y varchar(5), z date)).
func TestSurface(t *testing.T) {
	const ok, unsupported = "", "0A000"
	cases := []struct{ sql, want string }{
		// WITH: materialized (once per statement) or inlined, never
		// evaluated once per reference with different rows.
		{"with q as (select a from t) select * from q, q as r", ok},
		{"with q as materialized (select a from t) select * from q", ok},
		{"with q as not materialized (select a from t) select * from q, q as r", ok},
		{"with q as (select random() as r) select * from q, q as s", ok},
		{"with q(x, y, z, v) as (select * from t) select 1", "42P10"}, // checked though unreferenced
		{"with q as (select * from nosuch) select 1", "42P01"},        // idem
		{"with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select * from r", ok},
		{"with r(n) as (select 1) select * from r", ok},
		{"with recursive r(n) as (select 1) search depth first by n set ord select * from r", "42601"},
		{"with r(n) as (select 1 union all select 2) cycle n set c using p select * from r", "42601"},
		{"with q as (insert into u values (1, 'x') returning *) select * from q", ok},
		{"select (select count(*) from (with q as (select random() as r, o.a) select r from q union select r from q) s) from t o", unsupported},
		// Locking: FOR UPDATE/SHARE takes row locks that block concurrent
		// writers and DDL (and NOWAIT/SKIP LOCKED answer from them); joind
		// has no row locks, so a no-op would answer differently under
		// concurrency.
		{"select a from t for update", unsupported},
		{"select a from t for share", unsupported},
		{"select a from t for no key update skip locked", unsupported},
		// Windows are not aggregates.
		{"select sum(a) over () from t", ok},
		{"select count(*) over w from t window w as ()", ok},
		{"select row_number() over (order by a) from t", ok},
		{"select a from t order by count(*) over ()", ok},
		// Grouping and ordering.
		{"select distinct on (a) a, b from t", ok},
		{"select a, count(*) from t group by grouping sets ((a), ())", ok},
		{"select a, count(*) from t group by rollup (a)", ok},
		{"select a, count(*) from t group by cube (a)", ok},
		{"select grouping(a) from t group by a", ok},
		{"select grouping(a) from t", "42803"},
		{"select a from t where grouping(a) = 0 group by rollup (a)", "42803"},
		{"select count(*) from t group by cube (a, a, a, a, a, a, a, a, a, a, a, a, a)", "54011"},
		{"select a from t order by a using <, b using > nulls last", ok},
		{"select a from t order by a using operator(pg_catalog.>)", ok},
		{"select a from t order by a using =", "42809"},
		{"select a from t order by a desc nulls last, b nulls first", ok},
		{"select a from t order by a fetch first 1 rows with ties", ok},
		{"select a from t order by a offset 1 rows fetch next 2 rows only", ok},
		{"select * from t tablesample bernoulli (50)", unsupported},
		// COLLATE: C, POSIX and default are joind's bytewise comparison.
		{`select b collate "C" from t order by b collate "C"`, ok},
		{`select b collate "POSIX" from t`, ok},
		{`select b collate pg_catalog."default" from t`, ok},
		{`select b from t order by b collate "en_US"`, unsupported},
		{`select ('a' collate "C") < ('b' collate "POSIX")`, unsupported},
		{`select a collate "C" from t`, "42804"},
		{`create table n (s text collate "C", v varchar(3) collate "POSIX")`, ok},
		{`create table n (s text collate "en_US")`, unsupported},
		{`create table n (i int collate "C")`, "42804"},
		// Aggregate call options.
		{"select count(*) filter (where a > 1), count(distinct b) from t", ok},
		{"select string_agg(b, ',' order by b) from t", ok},
		{"select string_agg(distinct b, ',' order by a) from t", "42P10"},
		{"select percentile_cont(0.5) within group (order by a) from t", ok},
		{"select percentile_cont(array[0.5]) within group (order by a) from t", unsupported},
		{"select rank(1) within group (order by a) from t", ok},
		{"select sum(a) within group (order by a) from t", "42883"},
		{"select concat(variadic b) from t", "42804"}, // VARIADIC "any" needs an array
		{"select concat_ws(',', variadic array[a, a]) from t", ok},
		// FROM items.
		{"select * from public.t, pg_catalog.pg_class", ok},
		{"select * from pg_catalog.t", "42P01"}, // pg_catalog holds only the catalogs
		{"create table pg_catalog.n (a int)", "42501"},
		{"select * from only t", ok}, // no inheritance: ONLY t and t* are t
		{"select * from t*", ok},
		{"select * from generate_series(1, 3) with ordinality", ok},
		{"select * from rows from (generate_series(1, 2), generate_series(1, 3))", ok},
		{"select * from generate_series(1, 3) with ordinality as g(x, y, z)", "42P10"},
		{"select * from generate_series(1, generate_series(1, 2))", unsupported},
		// Set-returning functions in a SELECT list (ProjectSet) and where
		// PostgreSQL rejects them.
		{"select a, generate_series(1, a) from t order by generate_series(1, 2)", ok},
		{"select generate_series(1, count(*)) from t", ok},
		{"select generate_series(1, generate_series(1, 3))", ok},
		{"select a from t where generate_series(1, 2) > 1", unsupported},
		{"select case when a > 1 then generate_series(1, 2) end from t", unsupported},
		{"select coalesce(generate_series(1, 2), 0)", unsupported},
		{"select sum(generate_series(1, 2))", unsupported},
		{"select case when generate_series(1, 2) = 1 then 1 end", "42804"},
		{"select 1 limit generate_series(1, 2)", unsupported},
		{"select * from generate_series(1, 2) as g(x int)", "42601"}, // only for functions returning record
		{"select * from t as s(x, y, z, v)", "42P10"},
		{"select * from t join u using (a) as j", ok},
		{"select j.a from t join u using (a) as j", ok},
		{"select j.a from (t join u using (a) as j) as jj", "42P01"},
		{"select * from t join u using (a, a)", "42701"},
		{"select * from t natural join u", ok},
		// System columns: every PostgreSQL table has them, joind none.
		{"select xmin, ctid from t", unsupported},
		{"select t.tableoid from t", unsupported},
		{"select xmin from (select 1 as a) s", "42703"},
		{"create table n (xmin int)", "42701"},
		{"create table n as select 1 as ctid", "42701"},
		// Rows, arrays, field selection.
		{"select t from t", ok},
		{"select (t).a from t", ok},
		{"select (t).a[1] from t", "42804"}, // a is int4: no subscripting
		{"select t.* is null from t", ok},
		{"select t.* = t.* from t", ok},
		{"select row(a, b)::text from t", ok},
		{"select row(a, b)::int from t", "42846"},
		{"select (a, b) < (select 1, 'x') from t", ok},
		{"select row(a, b) is null from t", ok},
		{"select row(a, b) from t", ok},
		{"select (a, b) = (1, 'x') from t", ok},
		{"select distinct on (b) a from t order by a", "42P10"},
		{"select (a, b) < (select a, d from u limit 1) from t", ok},
		{"select (a, b) < (select random(), d from u limit 1) from t", unsupported},
		{"select (a, b) in (select a, d from u) from t", ok},
		{"select array(select a from t)", ok},
		{"select array[1, 2]", ok},
		{"select '{1,null,3}'::int[]", ok},
		{"select '{1}'::_int4", ok},
		{"select cast('{a}' as text array)", ok},
		{"select 1 = any (array[1, 2])", ok},
		{"select 1 = any ('{1,2}'::int[])", ok},
		{"select 1 = any ('{1,2}'::int)", "22P02"}, // the cast fails first, as in PostgreSQL
		{"select 1 = any ('{{1},{2}}'::int[])", ok},
		{"select 1 = any ('{1.5}'::int[])", "22P02"},
		{"select ('{a,b}'::text[])[1]", ok},
		{"select b[1] from t", unsupported},
		{"select array_length(b, 1) from t", unsupported},
		{"select a = any (select a from u), a = all (select a from u) from t", ok},
		{"create table n (a int[])", ok},
		// PostgreSQL 16 literals pg_query reads and PostgreSQL 15 does not.
		{"select 1_000", "42601"},
		{"select 0x1F, 0o17, 0b101", "42601"},
		{"select 1.5_0", "42601"},
		{"select $1_0", "42601"},
		{"create table n (a int storage plain)", "42601"},
		{"select t1_0, '0x1F', 10, 0.5, 1e3 from (select 1 as t1_0) s", ok},
		// Scalar expression forms.
		{"select 2 operator(pg_catalog.+) 3", ok},
		{"select 2 operator(public.+) 3", "42883"},
		{"select 2 operator(nosuch.+) 3", "3F000"},
		{"select pg_catalog.lower(b), pg_catalog.count(*) from t group by b", ok},
		{"select public.lower(b) from t", "42883"}, // joind's functions are pg_catalog's
		{"select a.b.lower('x')", unsupported},
		{"select case a when 1 then 'x' end, coalesce(a, 1), greatest(a, 2), least(a, 3), nullif(a, 1) from t", ok},
		{"select (a > 1) is not unknown, (a > 1) is true, a is distinct from 1 from t", ok},
		{"select current_date, current_user, session_user, current_schema, localtimestamp(2)", ok},
		{"select current_time, localtime(2)", ok},
		{"select lower(distinct b) from t", "42809"},
		{"select lower(b) filter (where true) from t", "42809"},
		{"select lower(*) from t", "42883"},
		{"select now(*)", "42809"},
		{"select lower(b order by b) from t", "42809"},
		{"select nosuch(distinct b) from t", "42883"},
		{"select a, count(*) from t group by distinct a", ok}, // without grouping sets, GROUP BY
		{"select xmlelement(name a)", unsupported},
		{"select b similar to 'x', b similar to 'x' escape '#' from t", ok},
		// DDL: constraints that would reject rows are not accepted silently.
		{"create table n (a int check (a > 0))", ok},
		{"create table n (a int, check (a > 0))", ok},
		{"create table n (a int references t (a))", "42830"}, // t.a has no unique constraint
		{"create table n (a int, b int generated always as (a * 2) stored)", unsupported},
		{"create table n (a int generated always as identity)", ok},
		{"create table n (a serial, b int generated by default as identity (start 5))", ok},
		{"create table n (a serial default 1)", "42601"},
		{"create table n (a text generated always as identity)", "22023"},
		{"create table n (a int not null default 1, b text null)", ok},
		{"create table n (a int primary key)", ok},
		{"create table n (a int unique)", ok},
		{"create table n (a int, b int, primary key (a, b))", ok},
		{"create table n (a int, unique (a))", ok},
		{"create table n (a int unique nulls not distinct)", unsupported},
		{"create table n (a int unique deferrable)", unsupported},
		{"create table n () inherits (t)", unsupported},
		{"create table n (a int) partition by range (a)", unsupported},
		{"create table n partition of t for values in (1)", unsupported},
		{"create table n (like t)", ok},
		{"create table n (like tv)", unsupported}, // LIKE of a view
		{"create table n of sometype", unsupported},
		{"create view v as select a from t where a > 1 with check option", unsupported},
		{"create view v with (security_barrier) as select a from t", unsupported},
		{"create recursive view v (n) as select 1", ok}, // the grammar makes it WITH RECURSIVE
		{"create recursive view v (n) as select 1 union all select n + 1 from v where n < 3", ok},
		// DML and other statements joind does not have.
		{"insert into u values (1, 'x') on conflict do nothing", ok},
		{"insert into u values (1, 'x') on conflict (a) do nothing", "42P10"}, // u has no unique index
		{"insert into u values (1, 'x') returning a", ok},
		{"insert into w (x) overriding system value values (1)", ok}, // no identity columns: nothing to override
		{"insert into w default values", ok},
		{"insert into w values (default, 'x', null)", ok},
		{"insert into tv values (1, 'x')", unsupported}, // PostgreSQL writes through simple views
		{"truncate tv", "42809"},
		{"copy tv to stdout", "42809"},
		{"update u set d = 'x'", ok},
		{"delete from u", ok},
		{"merge into u using t on u.a = t.a when matched then do nothing", ok},
		{"update u set d = 'x' where current of c", unsupported},
		{"with x as (select 1) delete from u", ok},
		{"with x as (delete from u returning a) delete from u", unsupported},
		{"update tv set a = 1", unsupported},
		{"create sequence s", ok},
		{"create sequence s increment 0", "22023"},
		{"create sequence s as text", "22023"},
		{"create sequence s minvalue 5 maxvalue 5", "22023"},
		{"create sequence s cache 1 cache 2", "42601"},
		{"alter table t add column d int", ok},
		{"alter table t add constraint c check (a > 0)", ok}, // bound as its subcommand runs: 0A000 then
		{"alter table t set schema s", "3F000"},              // no schema s
		{"alter table t set schema public", ok},
		{"alter function f() set schema public", unsupported},
		{"create index i on t (a)", ok},
		{"create index on t using gin (a)", unsupported},
		{"create index on t ((a + 1))", unsupported},
		{"create index on t (a) where a > 1", unsupported},
		{"create index on t (a) include (b)", unsupported},
		{"create index on t (a desc)", unsupported},
	}
	for _, c := range cases {
		got := surfaceOutcome(t, c.sql)
		if got != c.want {
			t.Errorf("%s\n  got %q, want %q", c.sql, got, c.want)
		}
	}
}

// surfaceOutcome binds one statement: "" when it binds, else its SQLSTATE
// (a failure with a message of its own is reported for 0A000 without one).
func surfaceOutcome(t *testing.T, query string) string {
	t.Helper()
	raws, err := Parse(query)
	if err != nil {
		return pgerr.As(err).Code
	}
	if len(raws) != 1 {
		t.Fatalf("%s: %d statements", query, len(raws))
	}
	_, err = bindNoPanic(raws[0], &BindOptions{})
	if err == nil {
		return ""
	}
	e := pgerr.As(err)
	if e.Code == pgerr.FeatureNotSupported && !strings.Contains(e.Message, "not supported") &&
		!strings.Contains(e.Message, "cannot be referenced") && !strings.Contains(e.Message, "not implemented") &&
		!strings.Contains(e.Message, "set-returning function") { // PostgreSQL's own 0A000s for SRF placement
		t.Errorf("%s: 0A000 without naming the feature: %s", query, e.Message)
	}
	return e.Code
}

// TestCTESharing checks the shape the binder gives WITH queries: one
// plan.CTE per WITH query, shared by every reference, materialized when
// PostgreSQL would need it to be.
func TestCTESharing(t *testing.T) {
	cases := []struct {
		sql          string
		refs         int
		materialized bool
	}{
		{"with q as (select a from t) select * from q, q as r", 2, false},
		{"with q as (select a from t) select * from q", 1, false},
		{"with q as materialized (select a from t) select * from q", 1, true},
		{"with q as (select random() as r) select * from q", 1, true},
		{"with q as not materialized (select random() as r) select * from q, q as s", 2, true},
		{"with q as (select a from t) select (select count(*) from q), (select count(*) from q)", 2, false},
	}
	for _, c := range cases {
		raws, err := Parse(c.sql)
		if err != nil {
			t.Fatal(err)
		}
		st, err := bindNoPanic(raws[0], &BindOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		ctes := map[*plan.CTE]int{}
		collectCTEScans(st.(*Query).Plan, ctes)
		if len(ctes) != 1 {
			t.Fatalf("%s: %d shared WITH queries, want 1", c.sql, len(ctes))
		}
		for cte, n := range ctes {
			if n != c.refs || cte.Refs != c.refs || cte.Materialized != c.materialized {
				t.Errorf("%s: %d scans, Refs %d, Materialized %v; want %d, %v", c.sql, n, cte.Refs, cte.Materialized, c.refs, c.materialized)
			}
		}
	}
	// NOT MATERIALIZED without volatile functions is inlined per reference.
	raws, _ := Parse("with q as not materialized (select a from t) select * from q, q as r")
	st, err := bindNoPanic(raws[0], &BindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctes := map[*plan.CTE]int{}
	collectCTEScans(st.(*Query).Plan, ctes)
	if len(ctes) != 0 {
		t.Errorf("NOT MATERIALIZED: %d shared WITH queries, want none", len(ctes))
	}
}

func collectCTEScans(n plan.Node, out map[*plan.CTE]int) {
	if cs, ok := n.(*plan.CTEScan); ok {
		out[cs.CTE]++
	}
	plan.Subqueries(n, func(sq *plan.Subquery) { collectCTEScans(sq.Plan, out) })
	for _, c := range n.Children() {
		collectCTEScans(c, out)
	}
}
