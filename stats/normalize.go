package stats

import (
	"hash/fnv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Normalize is what pg_stat_statements keeps of a statement: its query
// id and its text. PostgreSQL 15 jumbles only the optimizable statements
// (SELECT, INSERT, UPDATE, DELETE, MERGE; optimizable true): their
// constants become $1, $2, ... in the text and do not enter the id, so
// SELECT 1 and SELECT 2 are one entry. A utility statement keeps its text
// as sent and its id is a hash of that text, so SET x = 1 and SET x = 2
// are two entries (PostgreSQL 15's pgss_hash_string).
func Normalize(sql string, optimizable bool) (text string, queryID int64) {
	if optimizable {
		norm, err := pg_query.Normalize(sql)
		fp, ferr := pg_query.FingerprintToUInt64(sql)
		if err == nil && ferr == nil {
			return strings.TrimSpace(norm), int64(fp)
		}
	}
	h := fnv.New64a()
	h.Write([]byte(sql))
	return sql, int64(h.Sum64())
}

// NormalizePrepared is Normalize for the statement a PREPARE names, which
// pg_stat_statements charges its EXECUTEs to: the text is the PREPARE's,
// with the constants of the prepared query normalized after its own
// parameters, and the id is the prepared query's. pg_query's Normalize
// leaves a PREPARE's text as it is, so the prepared query (what follows
// the first AS outside parentheses) is normalized alone and put back.
func NormalizePrepared(prepare string) (text string, queryID int64) {
	sr, err := pg_query.Scan(prepare)
	if err != nil {
		return Normalize(prepare, false)
	}
	depth := 0
	for _, tok := range sr.Tokens {
		switch tok.Token {
		case pg_query.Token_ASCII_40: // (
			depth++
		case pg_query.Token_ASCII_41: // )
			depth--
		case pg_query.Token_AS:
			if depth == 0 {
				head, inner := prepare[:tok.End], prepare[tok.End:]
				norm, qid := Normalize(inner, true)
				sep := inner[:len(inner)-len(strings.TrimLeft(inner, " \t\r\n"))]
				return strings.TrimSpace(head + sep + norm), qid
			}
		}
	}
	return Normalize(prepare, false)
}
