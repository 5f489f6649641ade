package main

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Tolerant comparison, for workloads whose answers carry numeric results
// that DuckDB types differently from PostgreSQL (TPC-H): PostgreSQL's avg()
// and division of numeric give numeric with 16-20 significant digits where
// DuckDB gives a double; PostgreSQL pads char(n) with spaces, DuckDB has no
// char(n); decimal scales can differ (0.0500 against 0.05). It applies only
// between DuckDB and a wire peer; joind and PostgreSQL are always compared
// as exact text.
//
// Each canonical row is split at "|" into fields (TPC-H text holds no "|"):
//   - trailing spaces of every field are dropped;
//   - a field that is a plain decimal number on both sides ([-]digits[.digits],
//     optional exponent) compares numerically, equal when the difference is at
//     most relTolerance of the larger magnitude (or absTolerance near zero);
//   - every other field compares as exact text.
//
// The rows of both answers are first sorted by the same rule (numbers by value,
// text by bytes), so a different spelling of a number cannot reorder them.

const (
	relTolerance = 1e-9
	absTolerance = 1e-9
)

var plainNumber = regexp.MustCompile(`^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$`)

type normField struct {
	text  string
	num   float64
	isNum bool
}

func normalizeRows(rows []string) [][]normField {
	out := make([][]normField, len(rows))
	for i, r := range rows {
		parts := strings.Split(r, "|")
		fs := make([]normField, len(parts))
		for j, p := range parts {
			p = strings.TrimRight(p, " ")
			f := normField{text: p}
			if plainNumber.MatchString(p) {
				if v, err := strconv.ParseFloat(p, 64); err == nil {
					f.num, f.isNum = v, true
				}
			}
			fs[j] = f
		}
		out[i] = fs
	}
	slices.SortFunc(out, func(x, y []normField) int {
		for j := 0; j < len(x) && j < len(y); j++ {
			a, b := x[j], y[j]
			var c int
			if a.isNum && b.isNum {
				c = cmp.Compare(a.num, b.num)
			} else {
				c = strings.Compare(a.text, b.text)
			}
			if c != 0 {
				return c
			}
		}
		return cmp.Compare(len(x), len(y))
	})
	return out
}

func fieldsClose(a, b normField) bool {
	if a.isNum && b.isNum {
		d := math.Abs(a.num - b.num)
		return d <= absTolerance || d <= relTolerance*math.Max(math.Abs(a.num), math.Abs(b.num))
	}
	return a.text == b.text
}

// tolerantDiff compares two canonical answers under the rules above and
// describes the first difference ("" when they agree).
func tolerantDiff(a, b []string) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d rows vs %d rows", len(a), len(b))
	}
	na, nb := normalizeRows(a), normalizeRows(b)
	for i := range na {
		ra, rb := na[i], nb[i]
		if len(ra) != len(rb) {
			return fmt.Sprintf("row %d: %d columns vs %d", i+1, len(ra), len(rb))
		}
		for j := range ra {
			if !fieldsClose(ra[j], rb[j]) {
				return fmt.Sprintf("row %d column %d: %q vs %q", i+1, j+1, ra[j].text, rb[j].text)
			}
		}
	}
	return ""
}

// exactDiff describes the first difference of two canonical answers ("" when
// they are equal).
func exactDiff(a, b []string) string {
	if slices.Equal(a, b) {
		return ""
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d rows vs %d rows", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("row %d (sorted): %q vs %q", i+1, clip(a[i], 120), clip(b[i], 120))
		}
	}
	return ""
}
