package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
	"google.golang.org/protobuf/proto"

	"github.com/joind/joind/pgerr"
)

// Deep input. Bison keeps its own stack for what the grammar nests (a
// parenthesis, CASE, ARRAY[, a call, a subquery): past 10,000 entries it
// fails with 42601 "memory exhausted", as in PostgreSQL. A left-deep chain
// (1+1+…+1, 'x'||'x'||…, j->'a'->'a'…, x::t::t…) reduces as it goes, so
// bison accepts any length, but the tree it builds is as deep as the chain:
// pg_query's C code serialising it recurses once per link (30,000 links
// overflowed its thread's stack and killed the process), and so do the
// binder and PostgreSQL's analyzer, whose check_stack_depth answers 54001
// between 4,000 and 4,500 links of `+`. chainDepth measures the chain
// before pg_query sees the text, and Parse refuses past maxChainDepth.

// maxChainDepth is the longest operator chain Parse accepts: PostgreSQL 15
// with its default max_stack_depth (2 MB) evaluates 4,000 `+` links and
// refuses 4,500.
const maxChainDepth = 4000

// parseRecursionLimit bounds the Go protobuf decoding of pg_query's tree
// (the default 10,000 messages refused 2,000 nested subqueries, which
// PostgreSQL runs); the grammar's own limit keeps real trees well below it.
const parseRecursionLimit = 1 << 20

// parseTree is pg_query.Parse after the depth check, decoded with
// parseRecursionLimit.
func parseTree(query string) (*pg_query.ParseResult, error) {
	if err := checkChainDepth(query); err != nil {
		return nil, err
	}
	buf, err := pgparser.ParseToProtobuf(query)
	if err != nil {
		return nil, err
	}
	tree := &pg_query.ParseResult{}
	if err := (proto.UnmarshalOptions{RecursionLimit: parseRecursionLimit}).Unmarshal(buf, tree); err != nil {
		return nil, pgerr.Wrap(err, pgerr.InternalError, "decoding the parse tree: %s", err.Error())
	}
	return tree, nil
}

// checkChainDepth is 54001 when query holds an operator chain longer than
// maxChainDepth or a set-operation chain longer than maxSetOpChain. A link
// needs a token and an operand, so a short query is never scanned.
func checkChainDepth(query string) error {
	if len(query) <= 2*maxChainDepth {
		return nil
	}
	sr, err := pg_query.Scan(query)
	if err != nil {
		return nil // a scanner error: the parse reports it
	}
	if ops, setOps := chainDepth(sr.Tokens); ops > maxChainDepth || setOps > maxSetOpChain {
		return pgerr.StackDepthExceeded()
	}
	return nil
}

// maxSetOpChain is the longest chain of UNION / INTERSECT / EXCEPT Parse
// accepts: PostgreSQL 15 runs 6,000 UNION ALL arms and refuses 12,000.
const maxSetOpChain = 6000

// chainDepth is the deepest the parse tree of tokens can be through
// operator chains and through set-operation chains. For operators, each
// bracket level counts those since the last comma, semicolon or reserved
// keyword (one starts another clause or arm, and AND/OR lists are flat in
// the tree; type names such as int are not reserved, so x::int::int… is
// one chain); for set operations, those since the level opened. A point's
// depth is the sum over the levels open there. Counting every operator as
// one link is an upper bound (1*2+3*4 is two levels, counted three).
func chainDepth(tokens []*pg_query.ScanToken) (ops, setOps int) {
	type level struct{ ops, setOps int }
	levels := []level{{}}
	depth, setDepth := 0, 0
	for _, t := range tokens {
		top := &levels[len(levels)-1]
		switch {
		case t.Token == pg_query.Token_ASCII_40 || t.Token == pg_query.Token_ASCII_91: // ( [
			levels = append(levels, level{})
		case t.Token == pg_query.Token_ASCII_41 || t.Token == pg_query.Token_ASCII_93: // ) ]
			if len(levels) > 1 {
				depth -= top.ops
				setDepth -= top.setOps
				levels = levels[:len(levels)-1]
			}
		case t.Token == pg_query.Token_ASCII_59: // ;
			levels = levels[:1]
			levels[0] = level{}
			depth, setDepth = 0, 0
		case t.Token == pg_query.Token_UNION || t.Token == pg_query.Token_INTERSECT || t.Token == pg_query.Token_EXCEPT:
			top.setOps++
			setDepth++
			setOps = max(setOps, setDepth)
			depth -= top.ops
			top.ops = 0
		case chainLink(t.Token):
			top.ops++
			depth++
			ops = max(ops, depth)
		case t.Token == pg_query.Token_ASCII_44 || t.KeywordKind == pg_query.KeywordKind_RESERVED_KEYWORD: // ,
			depth -= top.ops
			top.ops = 0
		}
	}
	return ops, setOps
}

// chainLink reports whether a token makes one more node of an expression
// chain: an operator, a cast, COLLATE or AT (TIME ZONE).
func chainLink(t pg_query.Token) bool {
	switch t {
	case pg_query.Token_Op, pg_query.Token_TYPECAST, pg_query.Token_LESS_EQUALS,
		pg_query.Token_GREATER_EQUALS, pg_query.Token_NOT_EQUALS,
		pg_query.Token_ASCII_37, pg_query.Token_ASCII_42, pg_query.Token_ASCII_43, // % * +
		pg_query.Token_ASCII_45, pg_query.Token_ASCII_47, pg_query.Token_ASCII_60, // - / <
		pg_query.Token_ASCII_61, pg_query.Token_ASCII_62, pg_query.Token_ASCII_94, // = > ^
		pg_query.Token_COLLATE, pg_query.Token_AT:
		return true
	}
	return false
}
