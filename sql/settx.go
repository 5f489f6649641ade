package sql

import (
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// bindSetMulti binds SET TRANSACTION ... (the block's
// transaction_isolation / transaction_read_only) and SET SESSION
// CHARACTERISTICS AS TRANSACTION ... (their session defaults). The engine
// runs a transaction at the transaction_isolation in effect at its first
// query (storage/isolation.go) and refuses writes under READ ONLY.
func (b *binder) bindSetMulti(vs *pg_query.VariableSetStmt) (Statement, error) {
	prefix := ""
	if strings.EqualFold(vs.Name, "SESSION CHARACTERISTICS") {
		prefix = "default_"
	}
	sets := transactionModes(vs.Args, prefix)
	if len(sets) == 0 {
		return &NoOp{Tag: "SET"}, nil
	}
	first := sets[0]
	first.Also = sets[1:]
	return &first, nil
}

// transactionModes turns ISOLATION LEVEL / READ ONLY / READ WRITE (of SET
// TRANSACTION, SET SESSION CHARACTERISTICS, BEGIN) into the settings they
// set: transaction_* as SET LOCAL, default_transaction_* (prefix
// "default_") as SET. DEFERRABLE has no setting joind shows.
func transactionModes(args []*pg_query.Node, prefix string) []Set {
	var out []Set
	for _, a := range args {
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
			continue
		}
		out = append(out, Set{Name: prefix + d.Defname, Value: v, Args: []string{v}, Local: prefix == "", Transaction: prefix == ""})
	}
	return out
}

func isIntervalName(tn *pg_query.TypeName) bool {
	n := len(tn.Names)
	return n > 0 && strings.EqualFold(tn.Names[n-1].GetString_().Sval, "interval")
}

// Interval field masks of a typmod (PostgreSQL's INTERVAL_MASK).
const (
	intervalHour   = 1 << 10
	intervalMinute = 1 << 11
)

var hoursMinutes = regexp.MustCompile(`^\s*[+-]?\d+:\d{1,2}\s*$`)
var wholeHours = regexp.MustCompile(`^\s*[+-]?\d+\s*$`)

// setIntervalArg is SET TIME ZONE INTERVAL '...' [fields]: the value
// becomes "INTERVAL '<interval_out>'", as PostgreSQL flattens it, for
// TimeZone to read. Of the field restrictions, HOUR and HOUR TO MINUTE are
// understood on the inputs they leave unchanged or scale plainly; others
// fail rather than be misread.
func setIntervalArg(s string, tn *pg_query.TypeName, f *types.Format) (string, error) {
	in := s
	if len(tn.Typmods) > 0 {
		mask := int32(-1)
		if c := tn.Typmods[0].GetAConst(); c != nil {
			if iv, ok := c.Val.(*pg_query.A_Const_Ival); ok {
				mask = iv.Ival.Ival
			}
		}
		switch {
		case len(tn.Typmods) == 1 && mask == intervalHour|intervalMinute && hoursMinutes.MatchString(s):
		case len(tn.Typmods) == 1 && mask == intervalHour && wholeHours.MatchString(s):
			in = strings.TrimSpace(s) + " hours"
		default:
			return "", pgerr.New(pgerr.FeatureNotSupported, "SET TIME ZONE INTERVAL with this field restriction is not supported")
		}
	}
	v, err := types.ParseText(in, types.IntervalType)
	if err != nil {
		return "", err
	}
	// Written out in the session's IntervalStyle, as interval_out does.
	return "INTERVAL '" + string(types.FormatText(nil, v, types.IntervalType, f)) + "'", nil
}
