package tpch

import (
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestCompare(t *testing.T) {
	s := func(v string) *string { return &v }
	want := &result{columns: []string{"a", "b"}, rows: [][]*string{{s("1"), s("x")}, {s("2"), nil}}}
	cases := []struct {
		got  *result
		err  error
		diff string
	}{
		{&result{columns: []string{"a", "b"}, rows: [][]*string{{s("1"), s("x")}, {s("2"), nil}}}, nil, ""},
		{&result{columns: []string{"a", "b"}, rows: [][]*string{{s("1"), s("x")}, {s("2"), s("")}}}, nil, `row 2 b: joind "", PostgreSQL NULL`},
		{&result{columns: []string{"a", "b"}, rows: [][]*string{{s("2"), nil}, {s("1"), s("x")}}}, nil, `row 1 a: joind "2", PostgreSQL "1"`},
		{&result{columns: []string{"a", "b"}, rows: [][]*string{{s("1"), s("x")}}}, nil, "joind 1 rows, PostgreSQL 2"},
		{&result{columns: []string{"a", "c"}, rows: want.rows}, nil, "columns (a,c), PostgreSQL (a,b)"},
		{nil, &pgconn.PgError{Code: "0A000", Message: "not supported"}, "joind error 0A000: not supported"},
		{nil, errors.New("conn closed"), "joind: conn closed"},
	}
	for _, c := range cases {
		if d := compare(c.got, c.err, want); d != c.diff {
			t.Errorf("compare: %q, want %q", d, c.diff)
		}
	}
}
