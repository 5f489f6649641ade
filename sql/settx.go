package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// bindSetMulti binds SET TRANSACTION ... (the block's
// transaction_isolation / transaction_read_only) and SET SESSION
// CHARACTERISTICS AS TRANSACTION ... (their session defaults). joind runs
// every transaction the same way, but clients read the settings back.
func (b *binder) bindSetMulti(vs *pg_query.VariableSetStmt) (Statement, error) {
	prefix := ""
	if strings.EqualFold(vs.Name, "SESSION CHARACTERISTICS") {
		prefix = "default_"
	}
	var first *Set
	for _, a := range vs.Args {
		d := a.GetDefElem()
		if d == nil {
			continue
		}
		var v string
		switch d.Defname {
		case "transaction_isolation":
			v = strings.ToLower(defElemString(d))
		case "transaction_read_only":
			v = "off"
			if on, err := defElemBool(d); err == nil && on {
				v = "on"
			}
		default:
			continue // DEFERRABLE: no setting to show
		}
		if first == nil {
			first = &Set{Name: prefix + d.Defname, Value: v, Local: prefix == ""}
		}
	}
	if first == nil {
		return &NoOp{Tag: "SET"}, nil
	}
	return first, nil
}
