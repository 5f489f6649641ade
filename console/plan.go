package console

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/wire"
)

// PlanNode is one operator of an EXPLAIN (ANALYZE, FORMAT JSON) plan.
type PlanNode struct {
	Type, Relationship string
	Details            []Detail // the node's other keys, in EXPLAIN's order
	// Actuals, parsed from "Run Time"'s "(actual rows=… batches=… time=… ms …)".
	Rows, Batches int64
	TimeMs        float64
	Memory        string // "peak …" when the operator accounts its memory
	Spilled       string // what it wrote to spill files, when it did
	RunTime       string // the whole "Run Time" text, as EXPLAIN printed it
	Children      []*PlanNode
}

// Detail is one key of a node.
type Detail struct{ Key, Value string }

// ExplainAnalyze runs query under EXPLAIN (ANALYZE, FORMAT JSON) in a new
// session of eng, inside a read-only transaction that is rolled back.
func ExplainAnalyze(ctx context.Context, eng wire.Engine, user, database, query string) (*PlanNode, error) {
	sess, err := eng.NewSession(ctx, map[string]string{"user": user, "database": database, "application_name": "joind console"})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	if _, err := run(ctx, sess, "BEGIN READ ONLY"); err != nil {
		return nil, err
	}
	defer func() { _, _ = run(context.WithoutCancel(ctx), sess, "ROLLBACK") }()
	out, err := run(ctx, sess, "EXPLAIN (ANALYZE, FORMAT JSON) "+query)
	if err != nil {
		return nil, err
	}
	return parsePlan(out)
}

// run executes one statement and returns its first column, rows joined by
// newlines.
func run(ctx context.Context, sess wire.Session, sql string) (string, error) {
	sts, err := sess.Parse(sql)
	if err != nil {
		return "", err
	}
	if len(sts) != 1 {
		return "", pgerr.New(pgerr.FeatureNotSupported, "the console explains one statement at a time")
	}
	var w collect
	if _, err := sess.Execute(ctx, sts[0], &w); err != nil {
		return "", err
	}
	return strings.Join(w.rows, "\n"), nil
}

// collect is a wire.ResultWriter keeping the first column of each row.
type collect struct{ rows []string }

func (*collect) Describe([]wire.ColumnDesc) error { return nil }
func (c *collect) Row(v [][]byte) error {
	if len(v) > 0 {
		c.rows = append(c.rows, string(v[0]))
	}
	return nil
}
func (*collect) Notice(*pgerr.Error) error { return nil }

// parsePlan reads EXPLAIN's JSON, keeping each node's keys in order
// (encoding/json's maps would not).
func parsePlan(s string) (*PlanNode, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return nil, fmt.Errorf("EXPLAIN output: %v", err)
	}
	list, ok := v.([]any)
	if !ok || len(list) != 1 {
		return nil, fmt.Errorf("EXPLAIN output: not a list of one query")
	}
	q, ok := list[0].(ordered)
	if !ok {
		return nil, fmt.Errorf("EXPLAIN output: the query is not an object")
	}
	plan, ok := q.get("Plan").(ordered)
	if !ok {
		return nil, fmt.Errorf("EXPLAIN output: no Plan")
	}
	return nodeOf(plan), nil
}

// ordered is a decoded JSON object, its keys in order.
type ordered []keyValue

// keyValue is one key of a decoded object.
type keyValue struct {
	Key   string
	Value any
}

func (o ordered) get(k string) any {
	for _, d := range o {
		if d.Key == k {
			return d.Value
		}
	}
	return nil
}

func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var o ordered
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				o = append(o, keyValue{Key: k.(string), Value: v})
			}
			_, err := dec.Token()
			return o, err
		case '[':
			var l []any
			for dec.More() {
				v, err := decodeOrdered(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := dec.Token()
			return l, err
		}
		return nil, io.ErrUnexpectedEOF
	default:
		return t, nil
	}
}

var (
	actualRe = regexp.MustCompile(`\(actual ([^)]*)\)`)
	memoryRe = regexp.MustCompile(`\(memory: ([^)]*)\)`)
	spillRe  = regexp.MustCompile(`\(spilled: ([^)]*)\)`)
)

func nodeOf(o ordered) *PlanNode {
	n := &PlanNode{}
	for _, d := range o {
		switch d.Key {
		case "Node Type":
			n.Type = fmt.Sprint(d.Value)
		case "Parent Relationship":
			n.Relationship = fmt.Sprint(d.Value)
		case "Run Time":
			n.RunTime = fmt.Sprint(d.Value)
			n.parseRunTime()
		case "Plans":
			list, _ := d.Value.([]any)
			for _, c := range list {
				if co, ok := c.(ordered); ok {
					n.Children = append(n.Children, nodeOf(co))
				}
			}
		default:
			n.Details = append(n.Details, Detail{Key: d.Key, Value: fmt.Sprint(d.Value)})
		}
	}
	return n
}

// parseRunTime reads executor.Query.Note's text: "(actual rows=N
// batches=N time=X ms)" and the operator's own notes.
func (n *PlanNode) parseRunTime() {
	if m := actualRe.FindStringSubmatch(n.RunTime); m != nil {
		for _, f := range strings.Fields(m[1]) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				continue
			}
			switch k {
			case "rows":
				n.Rows, _ = strconv.ParseInt(v, 10, 64)
			case "batches":
				n.Batches, _ = strconv.ParseInt(v, 10, 64)
			case "time":
				n.TimeMs, _ = strconv.ParseFloat(v, 64)
			}
		}
	}
	if m := memoryRe.FindStringSubmatch(n.RunTime); m != nil {
		n.Memory = m[1]
	}
	if m := spillRe.FindStringSubmatch(n.RunTime); m != nil {
		n.Spilled = m[1]
	}
}

func (n *PlanNode) maxTime() float64 {
	t := n.TimeMs
	for _, c := range n.Children {
		t = max(t, c.maxTime())
	}
	return t
}

// Share is the node's time as a percentage of max, for its bar.
func (n *PlanNode) Share(max float64) float64 {
	if max <= 0 {
		return 0
	}
	return 100 * n.TimeMs / max
}
