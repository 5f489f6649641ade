package pgcatalog

import pg_query "github.com/pganalyze/pg_query_go/v5"

// pgjdbc's DatabaseMetaData.getColumns numbers each relation's columns
// with a window function joind does not have:
//
//	row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum
//
// joind's pg_attribute numbers each relation's columns densely from 1
// (there are no dropped or system columns), so that row number is attnum
// itself. AttnumRowNumber recognises the call; package sql binds it to
// attnum when both columns are pg_attribute's.

var _ = registerShim(Shim{
	Client: "pgjdbc 42.5 DatabaseMetaData.getColumns(catalog, \"public\", \"pc_jt\", \"%\")",
	Setup: []string{"CREATE TABLE pc_jt (i2 smallint NOT NULL, v varchar(20) DEFAULT 'x', n numeric(10,3), " +
		"ts timestamp, iv interval)"},
	Query: `SELECT * FROM (SELECT n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 'public' AND c.relname LIKE 'pc_jt') c WHERE true  AND attname LIKE '%' ORDER BY nspname,c.relname,attnum `,
})

// AttnumRowNumber recognises `row_number() OVER (PARTITION BY q.attrelid
// ORDER BY q.attnum)` (one qualifier q or none, ascending, no frame) and
// returns the two column references for the binder to check and bind; ok
// is false for any other call.
func AttnumRowNumber(fc *pg_query.FuncCall) (attrelid, attnum *pg_query.Node, ok bool) {
	w := fc.Over
	if len(fc.Funcname) == 0 || fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval() != "row_number" ||
		len(fc.Args) != 0 || w == nil || w.Name != "" || w.Refname != "" ||
		len(w.PartitionClause) != 1 || len(w.OrderClause) != 1 || w.FrameOptions&0x1 != 0 {
		return nil, nil, false
	}
	part := w.PartitionClause[0].GetColumnRef()
	sb := w.OrderClause[0].GetSortBy()
	if part == nil || sb == nil || sb.SortbyDir == pg_query.SortByDir_SORTBY_DESC || sb.Node.GetColumnRef() == nil {
		return nil, nil, false
	}
	last := func(cr *pg_query.ColumnRef) (string, string) {
		f := cr.Fields
		q := ""
		if len(f) == 2 {
			q = f[0].GetString_().GetSval()
		}
		return q, f[len(f)-1].GetString_().GetSval()
	}
	pq, pcol := last(part)
	oq, ocol := last(sb.Node.GetColumnRef())
	if pcol != "attrelid" || ocol != "attnum" || pq != oq {
		return nil, nil, false
	}
	return w.PartitionClause[0], sb.Node, true
}

// PgAttributeOID is pg_attribute's OID: the binder checks that both
// columns of AttnumRowNumber come from it.
const PgAttributeOID = 1249
