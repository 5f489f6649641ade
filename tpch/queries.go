package tpch

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed schema.sql
var schema string

//go:embed queries/q*.sql
var queryFiles embed.FS

// Schema is the DDL of the eight tables (schema.sql): TPC-H's column types,
// no keys or constraints beyond NOT NULL.
func Schema() string { return schema }

// NumQueries is the number of TPC-H queries.
const NumQueries = 22

// q11Fraction is Q11's FRACTION as qgen -d writes it at SF 1; qgen divides
// it by the scale factor ("to allow -d to work at all scale factors").
const q11Fraction = "0.0001000000"

// Query returns query n (1..22), queries/qNN.sql, with qgen's default
// substitution parameters, for scale factor sf: Q11's FRACTION is
// 0.0001/sf, as qgen -d writes it. Q15 is three statements (create view,
// select, drop view).
func Query(n int, sf float64) (string, error) {
	if n < 1 || n > NumQueries {
		return "", fmt.Errorf("tpch: no query %d (1..%d)", n, NumQueries)
	}
	b, err := queryFiles.ReadFile(fmt.Sprintf("queries/q%02d.sql", n))
	if err != nil {
		return "", err
	}
	q := string(b)
	if n == 11 {
		if !strings.Contains(q, q11Fraction) {
			return "", fmt.Errorf("tpch: q11.sql lacks its FRACTION %s", q11Fraction)
		}
		q = strings.Replace(q, q11Fraction, fmt.Sprintf("%11.10f", 0.0001/sf), 1)
	}
	return q, nil
}
