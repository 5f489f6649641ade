package optimizer

import (
	"fmt"
	"strconv"
	"strings"
)

// EXPLAIN (FORMAT JSON | YAML | XML): the same nodes as the text format,
// in PostgreSQL's structure — a list of one query whose "Plan" is the root
// node, each node's "Node Type", its details as keys and its inputs as
// "Plans" (the first "Outer", the second "Inner", any further "Member"),
// printed as PostgreSQL's explain.c prints each format. joind's node
// types and details are its own (the text format's), not PostgreSQL's.
// The row estimate is "Plan Rows", left out under COSTS OFF as
// PostgreSQL leaves its costs out.

// explainProp is one key of a node.
type explainProp struct {
	key   string
	value string
	num   bool // printed unquoted
}

func (n *ExplainNode) props(parent string, costs bool) []explainProp {
	out := []explainProp{{key: "Node Type", value: n.Title}}
	if parent != "" {
		out = append(out, explainProp{key: "Parent Relationship", value: parent})
	}
	if costs {
		out = append(out, explainProp{key: "Plan Rows", value: strconv.FormatFloat(n.Rows, 'f', 0, 64), num: true})
	}
	out = append(out, explainProp{key: "Partitions", value: n.Partitions})
	if n.Note != "" {
		out = append(out, explainProp{key: "Run Time", value: n.Note})
	}
	for _, d := range n.Details {
		k, v, ok := strings.Cut(d, ": ")
		if !ok {
			k, v = "Detail", d
		}
		out = append(out, explainProp{key: k, value: v})
	}
	return out
}

func relationship(i int) string {
	switch i {
	case 0:
		return "Outer"
	case 1:
		return "Inner"
	}
	return "Member"
}

// FormatExplain prints the plan rooted at n in format "json", "yaml" or
// "xml" (one value: EXPLAIN's single row).
func FormatExplain(n *ExplainNode, format string, costs bool) string {
	var b strings.Builder
	switch format {
	case "json":
		b.WriteString("[\n  {\n    \"Plan\": ")
		n.json(&b, "", costs, 4)
		b.WriteString("\n  }\n]")
	case "yaml":
		b.WriteString("- Plan: ")
		n.yaml(&b, "", costs, 4)
		return strings.TrimSuffix(b.String(), "\n")
	case "xml":
		b.WriteString("<explain xmlns=\"http://www.postgresql.org/2009/explain\">\n  <Query>\n    <Plan>\n")
		n.xml(&b, "", costs, 6)
		b.WriteString("    </Plan>\n  </Query>\n</explain>")
	default:
		panic("optimizer: EXPLAIN format " + format)
	}
	return b.String()
}

func (n *ExplainNode) json(b *strings.Builder, parent string, costs bool, indent int) {
	pad := strings.Repeat(" ", indent+2)
	b.WriteString("{")
	for i, p := range n.props(parent, costs) {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(b, "\n%s%s: ", pad, jsonString(p.key))
		if p.num {
			b.WriteString(p.value)
		} else {
			b.WriteString(jsonString(p.value))
		}
	}
	if len(n.Inputs) > 0 {
		fmt.Fprintf(b, ",\n%s\"Plans\": [", pad)
		for i, in := range n.Inputs {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(b, "\n%s  ", pad)
			in.json(b, relationship(i), costs, indent+4)
		}
		fmt.Fprintf(b, "\n%s]", pad)
	}
	fmt.Fprintf(b, "\n%s}", strings.Repeat(" ", indent))
}

// jsonString is escape_json.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yaml prints the node's keys as explain.c's YAML does: "Key: value" lines
// at indent, strings always quoted (escape_yaml), inputs as a "Plans:" list.
func (n *ExplainNode) yaml(b *strings.Builder, parent string, costs bool, indent int) {
	pad := strings.Repeat(" ", indent)
	for i, p := range n.props(parent, costs) {
		if i > 0 {
			b.WriteString(pad)
		} else {
			b.WriteString("\n" + pad)
		}
		v := p.value
		if !p.num {
			v = jsonString(v)
		}
		fmt.Fprintf(b, "%s: %s\n", p.key, v)
	}
	if len(n.Inputs) > 0 {
		fmt.Fprintf(b, "%sPlans: ", pad)
		for i, in := range n.Inputs {
			fmt.Fprintf(b, "\n%s  - ", pad)
			var sub strings.Builder
			in.yaml(&sub, relationship(i), costs, indent+4)
			// The list item's first key follows "- " on its line.
			b.WriteString(strings.TrimPrefix(strings.TrimSuffix(sub.String(), "\n"), "\n"+strings.Repeat(" ", indent+4)))
		}
		b.WriteString("\n")
	}
}

// xml prints the node's keys as elements whose names replace spaces by
// hyphens (explain.c's ExplainXMLTag), values escaped.
func (n *ExplainNode) xml(b *strings.Builder, parent string, costs bool, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, p := range n.props(parent, costs) {
		tag := xmlTag(p.key)
		fmt.Fprintf(b, "%s<%s>%s</%s>\n", pad, tag, xmlEscape(p.value), tag)
	}
	if len(n.Inputs) > 0 {
		fmt.Fprintf(b, "%s<Plans>\n", pad)
		for i, in := range n.Inputs {
			fmt.Fprintf(b, "%s  <Plan>\n", pad)
			in.xml(b, relationship(i), costs, indent+4)
			fmt.Fprintf(b, "%s  </Plan>\n", pad)
		}
		fmt.Fprintf(b, "%s</Plans>\n", pad)
	}
}

// xmlTag is a key as an element name: runs of anything but letters and
// digits become one hyphen ("Node Type" → "Node-Type").
func xmlTag(key string) string {
	var b strings.Builder
	dash := false
	for _, r := range key {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
