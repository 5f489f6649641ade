package types

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// randomJSONText writes a random JSON document in a random (mostly
// valid) spelling: white space, key order and repeats, number forms and
// string escapes vary, so some come out canonical and most do not.
func randomJSONText(r *rand.Rand, b *strings.Builder, depth int) {
	ws := func() {
		switch r.Intn(8) {
		case 0:
			b.WriteString(" ")
		case 1:
			b.WriteString("\n\t")
		}
	}
	sep := func(s string) {
		b.WriteString(s)
		if r.Intn(6) != 0 {
			b.WriteByte(' ')
		} else {
			ws()
		}
	}
	k := r.Intn(9)
	if depth > 3 {
		k %= 5
	}
	switch k {
	case 0:
		b.WriteString([]string{"null", "true", "false"}[r.Intn(3)])
	case 1, 2:
		nums := []string{"0", "-0", "1", "-12", "1.50", "0.001", "-0.0", "1e3", "2E-2", "123456789012345678901234567890", "7.0"}
		b.WriteString(nums[r.Intn(len(nums))])
	case 3, 4:
		randomJSONString(r, b)
	case 5, 6:
		b.WriteByte('[')
		n := r.Intn(4)
		for i := 0; i < n; i++ {
			if i > 0 {
				sep(",")
			}
			randomJSONText(r, b, depth+1)
		}
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		n := r.Intn(4)
		for i := 0; i < n; i++ {
			if i > 0 {
				sep(",")
			}
			randomJSONString(r, b)
			sep(":")
			randomJSONText(r, b, depth+1)
		}
		b.WriteByte('}')
	}
	if r.Intn(10) == 0 {
		ws()
	}
}

func randomJSONString(r *rand.Rand, b *strings.Builder) {
	parts := []string{"a", "b", "ab", "ba", "aaa", "\\\"", "\\\\", "\\n", "\\u0001", "\\u001F", "\\u0041", "\\/", "é", "\\t", "\\u00e9", " "}
	b.WriteByte('"')
	for n := r.Intn(3); n > 0; n-- {
		b.WriteString(parts[r.Intn(len(parts))])
	}
	b.WriteByte('"')
}

// The fast path answers exactly what the tree path prints, and takes
// every text the tree path prints.
func TestCanonicalJSONBMatchesTree(t *testing.T) {
	r := rand.New(rand.NewSource(15))
	fast := 0
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		randomJSONText(r, &b, 0)
		s := b.String()
		tree, err := parseJSONBText(s)
		if err != nil {
			if canonicalJSONB(s) {
				t.Fatalf("%q: canonical but jsonb_in fails: %v", s, err)
			}
			continue
		}
		want := jsonbText(tree)
		if canonicalJSONB(s) {
			fast++
			if s != want {
				t.Fatalf("%q: taken as canonical, but jsonb_out prints %q", s, want)
			}
		}
		if !canonicalJSONB(want) {
			t.Fatalf("%q: jsonb_out's own text is not taken as canonical", want)
		}
	}
	if fast == 0 {
		t.Fatal("no random document was canonical")
	}
}

func TestCanonicalJSONBCases(t *testing.T) {
	for s, want := range map[string]bool{
		`{"a": 1, "b": "x"}`: true, `{"b": 1, "a": 2}`: false, `{"a": 1, "a": 2}`: false, `{"b": 1, "aa": 2}`: true,
		`{"a":1}`: false, ` 1`: false, `1 `: false, `[1, 2]`: true, `[1,2]`: false, `[]`: true, `{}`: true,
		`-0`: false, `0.0`: true, `-0.5`: true, `1e2`: false, `"\u0001"`: true, `"\u0041"`: false, `"\/"`: false,
		`"\u001F"`: false, `"\u001f"`: true, `"\n"`: true, `[{"a": [null, true, false]}]`: true, `[1, 2`: false,
		strconv.Quote("é"): true,
	} {
		if got := canonicalJSONB(s); got != want {
			t.Errorf("canonicalJSONB(%s) = %v, want %v", s, got, want)
		}
	}
}
