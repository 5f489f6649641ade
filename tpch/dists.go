package tpch

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// dists.dss is TPC's distributions file from TPC-H dbgen 2.14.0 (as
// published in github.com/electrum/tpch-dbgen; its content is the same as the
// copy in go-tpc's port of dbgen 2.4.0). It is TPC data, used unchanged.
//
//go:embed dists.dss
var distsFile string

// dist is one weighted distribution of dists.dss: tokens with their
// cumulative weights, as dbgen's read_dist keeps them.
type dist struct {
	tokens []string
	cum    []int64    // cum[i] = weight[0] + ... + weight[i]
	items  [][]string // each token split on spaces (the grammar's syntaxes)
}

func (d *dist) total() int64 { return d.cum[len(d.cum)-1] }

// pick is dbgen's pick_str: a uniform draw in [1, total] on stream sd picks
// the first token whose cumulative weight reaches it.
func (d *dist) pick(r *streams, sd int) (int, string) {
	j := r.random(1, d.total(), sd)
	// A linear scan, as dbgen's: weights may be zero or (nations: region
	// deltas) negative, so the cumulative weights need not be sorted.
	i := 0
	for d.cum[i] < j {
		i++
	}
	return i, d.tokens[i]
}

// distributions are the dists.dss sets the generator reads.
type distributions struct {
	nations, regions, priorities, instructions, shipModes, returnFlags,
	segments, colors, partTypes, containers,
	articles, nouns, adjectives, adverbs, prepositions, verbs, terminators,
	auxiliaries, nounPhrases, verbPhrases, grammar *dist
}

// parseDists reads dists.dss: "begin NAME", "count|N", "token|weight"
// lines, "end NAME"; '#' starts a comment line; keywords are case-free.
func parseDists(text string) (map[string]*dist, error) {
	out := map[string]*dist{}
	var cur *dist
	var name string
	var count int
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		lower := strings.ToLower(line)
		switch {
		case strings.HasPrefix(lower, "begin "):
			name = strings.TrimSpace(lower[len("begin "):])
			cur = &dist{}
			count = -1
			continue
		case strings.HasPrefix(lower, "end "):
			if cur == nil || len(cur.tokens) != count {
				return nil, fmt.Errorf("dists.dss line %d: distribution %s has %d tokens, count says %d", i+1, name, len(cur.tokens), count)
			}
			out[name] = cur
			cur = nil
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("dists.dss line %d: %q outside a distribution", i+1, line)
		}
		tok, w, ok := strings.Cut(line, "|")
		if !ok {
			return nil, fmt.Errorf("dists.dss line %d: no '|' in %q", i+1, line)
		}
		weight, err := strconv.ParseInt(strings.TrimSpace(w), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("dists.dss line %d: %v", i+1, err)
		}
		if strings.EqualFold(tok, "count") {
			count = int(weight)
			continue
		}
		var prev int64
		if n := len(cur.cum); n > 0 {
			prev = cur.cum[n-1]
		}
		cur.tokens = append(cur.tokens, tok)
		cur.items = append(cur.items, strings.Split(tok, " "))
		cur.cum = append(cur.cum, prev+weight)
	}
	return out, nil
}

func loadDistributions() (*distributions, error) {
	m, err := parseDists(distsFile)
	if err != nil {
		return nil, err
	}
	get := func(name string) *dist {
		d := m[name]
		if d == nil && err == nil {
			err = fmt.Errorf("dists.dss has no distribution %s", name)
		}
		return d
	}
	d := &distributions{
		nations: get("nations"), regions: get("regions"), priorities: get("o_oprio"),
		instructions: get("instruct"), shipModes: get("smode"), returnFlags: get("rflag"),
		segments: get("msegmnt"), colors: get("colors"), partTypes: get("p_types"),
		containers: get("p_cntr"), articles: get("articles"), nouns: get("nouns"),
		adjectives: get("adjectives"), adverbs: get("adverbs"), prepositions: get("prepositions"),
		verbs: get("verbs"), terminators: get("terminators"), auxiliaries: get("auxillaries"),
		nounPhrases: get("np"), verbPhrases: get("vp"), grammar: get("grammar"),
	}
	return d, err
}
