package types

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// glibcMisrounded are inputs of testdata/float_pg15.txt where glibc's result
// is not the correctly rounded one (checked with 50-digit arithmetic), so
// joind's correctly rounded value differs from PostgreSQL's by one ulp.
var glibcMisrounded = map[string]bool{
	"ln 719.25": true, // exact 6.5782090024316572929..., just past the midpoint; glibc rounds down
}

// TestFloatMathMatchesPostgres checks float8 exp, ln, log10 and power bit for
// bit against PostgreSQL 15's outputs (testdata/float_pg15.txt).
func TestFloatMathMatchesPostgres(t *testing.T) {
	f, err := os.Open("testdata/float_pg15.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fs := strings.Fields(line)
		nums := make([]float64, len(fs)-1)
		for i, s := range fs[1:] {
			if nums[i], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("bad line %q", line)
			}
		}
		want := nums[len(nums)-1]
		var got float64
		switch fs[0] {
		case "exp":
			got = crExp(nums[0])
		case "ln":
			got = crLog(nums[0])
		case "log10":
			got = glibcLog10(nums[0])
		case "pow":
			v, err := evalPowFloat(nil, []Value{{F: nums[0]}, {F: nums[1]}})
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			got = v.F
		default:
			t.Fatalf("bad line %q", line)
		}
		n++
		key := strings.Join(fs[:len(fs)-1], " ")
		if math.Float64bits(got) != math.Float64bits(want) {
			if !glibcMisrounded[key] {
				t.Errorf("%s = %v, PostgreSQL %v", key, got, want)
			}
		} else if glibcMisrounded[key] {
			t.Errorf("%s now matches PostgreSQL; drop it from glibcMisrounded", key)
		}
	}
	if n < 1000 {
		t.Fatalf("only %d cases read", n)
	}
}
