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
	cols, ts, err := b.columnDefinitions(rf)
	if err != nil {
		return nil, err
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

// columnDefinitions is a FROM function's column definition list: the
// names and types.
func (b *binder) columnDefinitions(rf *pg_query.RangeFunction) ([]string, []types.Type, error) {
	var cols []string
	var ts []types.Type
	for _, n := range rf.Coldeflist {
		cd := n.GetColumnDef()
		if cd == nil {
			return nil, nil, b.errAt(pgerr.New(pgerr.SyntaxError, "invalid column definition"), nodeLocation(n))
		}
		t, err := b.typeFromName(cd.TypeName)
		if err != nil {
			return nil, nil, b.wrapAt(err, cd.Location)
		}
		cols, ts = append(cols, cd.Colname), append(ts, t)
	}
	return cols, ts, nil
}

// bindJSONPopulate binds FROM json[b]_populate_record[set](base, doc):
// a set of records of base's type, or, for NULL::record, of the record
// the column definition list describes (types.JSONPopulateInFrom).
func (b *binder) bindJSONPopulate(fs *scope, fc *pg_query.FuncCall, name string, rf *pg_query.RangeFunction) (plan.SetFunc, error) {
	args, ov, err := b.bindResolvedCall(fs, fc, name)
	if err != nil {
		return plan.SetFunc{}, err
	}
	rt := ov.Result
	if rt.ID == types.Record && rt.Desc() == nil && len(rf.Coldeflist) > 0 && len(rf.Functions) == 1 {
		cols, ts, err := b.columnDefinitions(rf)
		if err != nil {
			return plan.SetFunc{}, err
		}
		rt = types.RecordOf(types.RecordDesc{Fields: cols, Types: ts})
	}
	return plan.SetFunc{Func: types.JSONPopulateInFrom(ov, rt), Args: args}, nil
}
