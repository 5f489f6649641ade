package sql

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/joind/joind/external"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// bindReadParquet binds FROM read_parquet('file'): a scan of the Parquet
// file (external.ParquetTable), or of every file a glob pattern matches
// ('dir/*.parquet'), read where copy_dirs allows server-side files. The file's footer is read now, for its columns; the rows are read
// by the scan, only the columns and row groups it needs. The name must be
// a constant, as the columns depend on it.
func (b *binder) bindReadParquet(s *scope, rf *pg_query.RangeFunction, fc *pg_query.FuncCall) (plan.Node, []*nsItem, *scope, error) {
	if rf.Ordinality || rf.IsRowsfrom || len(rf.Coldeflist) > 0 {
		return nil, nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "read_parquet takes no WITH ORDINALITY, ROWS FROM or column definition list"), fc.Location)
	}
	// Server-side files are for superusers and pg_read_server_files, as
	// COPY FROM a file (engine/roles.go) and pg_read_file.
	if a, role := b.snapshot().Auth(), b.snapshot().CurrentRole(); !a.IsSuper(role) && !a.MemberOf(role, 4569, true) {
		return nil, nil, nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for function read_parquet").
			WithHint("Reading server-side files takes a superuser or a member of pg_read_server_files.")
	}
	if len(fc.Args) != 1 || fc.AggStar || fc.AggDistinct || fc.FuncVariadic || fc.AggOrder != nil || fc.AggFilter != nil || fc.Over != nil {
		return nil, nil, nil, b.errAt(pgerr.New(pgerr.UndefinedFunction, "function read_parquet must be called with one argument, the file name").
			WithHint("read_parquet('file.parquet')"), fc.Location)
	}
	arg, err := b.bindExpr(&scope{exprKind: "functions in FROM"}, fc.Args[0])
	if err != nil {
		return nil, nil, nil, err
	}
	c, ok := arg.(*plan.Const)
	if !ok || (c.T.ID != types.Text && c.T.ID != types.Unknown && c.T.ID != types.Varchar) {
		return nil, nil, nil, b.errAt(pgerr.New(pgerr.FeatureNotSupported, "read_parquet's file name must be a text constant"), b.locOf(arg))
	}
	if c.Val.Null {
		return nil, nil, nil, b.errAt(pgerr.New(pgerr.NullValueNotAllowed, "read_parquet's file name must not be NULL"), b.locOf(arg))
	}
	paths, err := external.ResolvePattern(b.fileDirs(), c.Val.S)
	if err != nil {
		return nil, nil, nil, err
	}
	source := paths[0]
	if len(paths) > 1 {
		source = c.Val.S + " (" + strconv.Itoa(len(paths)) + " files)"
	}
	tbl, err := external.OpenParquet(source, paths)
	if err != nil {
		return nil, nil, nil, err
	}
	return b.bindTableFunction(s, rf, "read_parquet", tbl)
}
