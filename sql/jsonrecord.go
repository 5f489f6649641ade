package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// bindJSONToRecord binds FROM json[b]_to_record[set](doc) AS t(a int, ...):
// the column definition list gives the record's columns, each a
// set-returning function of the document (types.JSONToRecordColumns).
func (b *binder) bindJSONToRecord(fs *scope, fc *pg_query.FuncCall, name string, rf *pg_query.RangeFunction) ([]plan.SetFunc, error) {
	if len(rf.Coldeflist) == 0 {
		return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "a column definition list is required for functions returning \"record\""), fc.Location)
	}
	if len(rf.Functions) != 1 || rf.Ordinality {
		return nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "%s in ROWS FROM or WITH ORDINALITY is not supported", name), fc.Location)
	}
	args, ov, err := b.bindResolvedCall(fs, fc, name)
	if err != nil {
		return nil, err
	}
	var cols []string
	var ts []types.Type
	for _, n := range rf.Coldeflist {
		cd := n.GetColumnDef()
		if cd == nil {
			return nil, b.errAt(pgerr.New(pgerr.SyntaxError, "invalid column definition"), nodeLocation(n))
		}
		t, err := b.typeFromName(cd.TypeName)
		if err != nil {
			return nil, b.wrapAt(err, cd.Location)
		}
		cols, ts = append(cols, cd.Colname), append(ts, t)
	}
	ovs, err := types.JSONToRecordColumns(ov, cols, ts)
	if err != nil {
		return nil, b.wrapAt(err, fc.Location)
	}
	out := make([]plan.SetFunc, len(ovs))
	for i, o := range ovs {
		out[i] = plan.SetFunc{Func: o, Args: args}
	}
	return out, nil
}
