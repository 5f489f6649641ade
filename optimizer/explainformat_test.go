package optimizer

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
)

func sampleExplain() *ExplainNode {
	scan := &ExplainNode{Title: "Scan on t", Rows: 10, Partitions: "2"}
	filter := &ExplainNode{Title: "Filter", Rows: 3, Partitions: "2", Details: []string{`Filter: (a > 1 AND b = '"x" <y>')`}, Inputs: []*ExplainNode{scan}}
	other := &ExplainNode{Title: "Scan on u", Rows: 5, Partitions: "2"}
	return &ExplainNode{Title: "Hash Join Inner", Rows: 3, Partitions: "2", Note: "(actual rows=0)",
		Details: []string{"Hash Keys (build = probe): a = x"}, Inputs: []*ExplainNode{filter, other}}
}

// FORMAT JSON is PostgreSQL's structure: a list of one object whose
// "Plan" nests "Plans"; COSTS OFF drops "Plan Rows".
func TestFormatExplainJSON(t *testing.T) {
	var doc []map[string]any
	if err := json.Unmarshal([]byte(FormatExplain(sampleExplain(), "json", true)), &doc); err != nil {
		t.Fatal(err)
	}
	root := doc[0]["Plan"].(map[string]any)
	plans := root["Plans"].([]any)
	if root["Node Type"] != "Hash Join Inner" || root["Plan Rows"] != 3.0 || len(plans) != 2 {
		t.Fatalf("root %v", root)
	}
	f := plans[0].(map[string]any)
	if f["Parent Relationship"] != "Outer" || f["Filter"] != `(a > 1 AND b = '"x" <y>')` || plans[1].(map[string]any)["Parent Relationship"] != "Inner" {
		t.Errorf("first input %v", f)
	}
	if s := FormatExplain(sampleExplain(), "json", false); strings.Contains(s, "Plan Rows") {
		t.Errorf("COSTS OFF printed the estimate:\n%s", s)
	}
}

func TestFormatExplainXMLAndYAML(t *testing.T) {
	var doc struct {
		Query struct {
			Plan struct {
				NodeType string `xml:"Node-Type"`
				Plans    struct {
					Plan []struct {
						NodeType string `xml:"Node-Type"`
						Filter   string `xml:"Filter"`
					} `xml:"Plan"`
				} `xml:"Plans"`
			} `xml:"Plan"`
		} `xml:"Query"`
	}
	if err := xml.Unmarshal([]byte(FormatExplain(sampleExplain(), "xml", true)), &doc); err != nil {
		t.Fatal(err)
	}
	if p := doc.Query.Plan; p.NodeType != "Hash Join Inner" || len(p.Plans.Plan) != 2 || p.Plans.Plan[0].Filter != `(a > 1 AND b = '"x" <y>')` {
		t.Errorf("xml: %+v", p)
	}
	want := "- Plan: \n    Node Type: \"Hash Join Inner\"\n    Plan Rows: 3\n"
	y := FormatExplain(sampleExplain(), "yaml", true)
	if !strings.HasPrefix(y, want) || !strings.Contains(y, "\n    Plans: \n      - Node Type: \"Filter\"\n        Parent Relationship: \"Outer\"\n") ||
		strings.HasSuffix(y, "\n") {
		t.Errorf("yaml:\n%s", y)
	}
}
