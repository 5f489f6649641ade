package types

// leakproofSignatures lists the built-ins joind has that PostgreSQL 15 marks
// leakproof (pg_proc.proleakproof; for an operator that of its oprcode): they
// raise no error that depends on their arguments, so the optimizer may
// evaluate them on rows PostgreSQL would not reach (a correlated subquery's
// condition run below a join, on every inner row). PostgreSQL's list is kept
// in testdata/leakproof_pg15.tsv (testdata/genleakproof.sh), and
// TestLeakproofAsPgProc holds this set to it for every built-in PostgreSQL
// has. Note what is missing: numeric comparisons and the date/timestamp
// cross-type comparisons are not leakproof in PostgreSQL 15.
var leakproofSignatures = leakproofSet()

func leakproofSet() map[string]bool {
	set := map[string]bool{}
	same := []string{"bool", "int2", "int4", "int8", "float4", "float8", "text", "bpchar",
		"date", "timestamp", "timestamptz", "interval", "bytea", "uuid", "time", "timetz",
		"inet", "macaddr", "macaddr8"}
	for _, op := range []string{"=", "<>", "<", "<=", ">", ">="} {
		for _, t := range same {
			set[sigKey(op, []string{t, t})] = true
		}
		for _, fam := range [][]string{{"int2", "int4", "int8"}, {"float4", "float8"}} {
			for _, l := range fam {
				for _, r := range fam {
					set[sigKey(op, []string{l, r})] = true
				}
			}
		}
	}
	for _, sig := range [][]string{{"^@", "text", "text"}, {"starts_with", "text", "text"}, {"md5", "text"},
		{"md5", "bytea"}, {"sha224", "bytea"}, {"sha256", "bytea"}, {"sha384", "bytea"}, {"sha512", "bytea"}, {"gen_random_uuid"}, {"macaddr8", "macaddr"},
		{"macaddr_cmp", "macaddr", "macaddr"}, {"macaddr8_cmp", "macaddr8", "macaddr8"}} {
		set[sigKey(sig[0], sig[1:])] = true
	}
	for _, op := range []string{"~<~", "~<=~", "~>=~", "~>~"} {
		set[sigKey(op, []string{"text", "text"})] = true
		set[sigKey(op, []string{"bpchar", "bpchar"})] = true
	}
	return set
}

// leakproofCasts lists the casts (source, target) PostgreSQL 15 performs
// without an error for any value: binary-coercible ones and those whose cast
// function is leakproof (pg_cast.castfunc's proleakproof). Widening numeric
// casts are; narrowing ones (overflow), text input and typmod coercions are not.
var leakproofCasts = map[[2]ID]bool{
	{Bool, Int4}: true, {Int4, Bool}: true,
	{Float4, Float8}: true, {Float4, Numeric}: true, {Float8, Numeric}: true,
	{Int2, Int4}: true, {Int2, Int8}: true, {Int4, Int8}: true,
	{Int2, Float4}: true, {Int2, Float8}: true, {Int4, Float4}: true, {Int4, Float8}: true,
	{Int8, Float4}: true, {Int8, Float8}: true,
	{Int2, Numeric}: true, {Int4, Numeric}: true, {Int8, Numeric}: true,
	{Time, Interval}: true,
	{Varchar, Text}:  true, {Text, Varchar}: true, {Text, Char}: true, {Varchar, Char}: true,
	{Cidr, Inet}: true, {MacAddr, MacAddr8}: true,
}

func isLeakproof(name string, args []ID) bool {
	return leakproofSignatures[sigKey(name, sigNames(args))]
}

// CastLeakproof reports whether the cast from → to can raise no error for
// any value (PostgreSQL's leakproof notion, as Overload.Leakproof): a cast to
// the same type without a typmod to enforce, or one in leakproofCasts.
func CastLeakproof(from, to Type) bool {
	if to.Typmod != -1 {
		return false // length or precision checks can fail
	}
	if from.ID == to.ID {
		return true
	}
	return leakproofCasts[[2]ID{from.ID, to.ID}]
}
