package pgcatalog

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
)

// Sequences in the catalogs: pg_class rows of relkind 'S' (Relations),
// pg_sequence, the pg_sequences and information_schema.sequences views,
// pg_depend's ownership rows (a serial column's 'a', an identity's 'i',
// which psql's \d of a sequence reads for "Owned by:") and
// pg_get_serial_sequence.

// seqColumns are a sequence relation's columns (SELECT * FROM s).
var seqColumns = []storage.ColumnDef{
	{Name: "last_value", Type: types.Int8Type, NotNull: true},
	{Name: "log_cnt", Type: types.Int8Type, NotNull: true},
	{Name: "is_called", Type: types.BoolType, NotNull: true},
}

// sequences lists the catalog's sequences (none for a catalog without).
func (s *Snapshot) sequences() []storage.Sequence {
	if sc, ok := s.cat.(storage.SequenceCatalog); ok {
		return sc.Sequences()
	}
	return nil
}

func (s *Snapshot) sequenceRelations() []Relation {
	var out []Relation
	for _, def := range s.sequences() {
		def := def
		ns, name := s.seqNamespace(def)
		r := Relation{OID: def.ObjectID(), Name: name, Namespace: ns.OID, Schema: ns.Name,
			Kind: 'S', Columns: seqColumns, Rows: 1, Seq: &def, Temp: def.Temp, Comment: def.Comment}
		out = append(out, r)
	}
	return out
}

// seqNamespace is the schema of sequence def and its bare name (a
// sequence's name is a storage key like a table's).
func (s *Snapshot) seqNamespace(def storage.Sequence) (Namespace, string) {
	if def.Temp {
		return nsTemp, def.Name
	}
	return s.namespaceOfKey(def.Name)
}

// ownerColumn is the table and column ordinal that own def (OWNED BY).
func (s *Snapshot) ownerColumn(def storage.Sequence) (Relation, int, bool) {
	if def.OwnedTable == "" {
		return Relation{}, 0, false
	}
	schema, table := TempSchema, def.OwnedTable
	if !def.Temp {
		var ns Namespace
		ns, table = s.namespaceOfKey(def.OwnedTable)
		schema = ns.Name
	}
	r, ok := s.RelationByName(schema, table)
	if !ok || r.Kind != 'r' {
		return Relation{}, 0, false
	}
	for i, c := range r.Columns {
		if c.Name == def.OwnedColumn {
			return r, i, true
		}
	}
	return Relation{}, 0, false
}

type pgSequencesRow struct {
	Schemaname    Name   `pg:"schemaname" type:"name"`
	Sequencename  Name   `pg:"sequencename" type:"name"`
	Sequenceowner Name   `pg:"sequenceowner" type:"name"`
	DataType      string `pg:"data_type"`
	StartValue    int64  `pg:"start_value"`
	MinValue      int64  `pg:"min_value"`
	MaxValue      int64  `pg:"max_value"`
	IncrementBy   int64  `pg:"increment_by"`
	Cycle         bool   `pg:"cycle"`
	CacheSize     int64  `pg:"cache_size"`
	LastValue     *int64 `pg:"last_value"`
}

type isSequencesRow struct {
	SequenceCatalog       string `pg:"sequence_catalog"`
	SequenceSchema        string `pg:"sequence_schema"`
	SequenceName          string `pg:"sequence_name"`
	DataType              string `pg:"data_type"`
	NumericPrecision      int32  `pg:"numeric_precision"`
	NumericPrecisionRadix int32  `pg:"numeric_precision_radix"`
	NumericScale          int32  `pg:"numeric_scale"`
	StartValue            string `pg:"start_value"`
	MinimumValue          string `pg:"minimum_value"`
	MaximumValue          string `pg:"maximum_value"`
	Increment             string `pg:"increment"`
	CycleOption           string `pg:"cycle_option"`
}

func seqTypeOID(def storage.Sequence) uint32 { return types.Type{ID: def.Type, Typmod: -1}.OID() }

// sequenceRows are pg_sequence's rows.
func sequenceRows(s *Snapshot) []pgSequenceRow {
	var out []pgSequenceRow
	for _, def := range s.sequences() {
		out = append(out, pgSequenceRow{Seqrelid: def.ObjectID(), Seqtypid: seqTypeOID(def), Seqstart: def.Start,
			Seqincrement: def.Increment, Seqmax: def.Max, Seqmin: def.Min, Seqcache: def.Cache, Seqcycle: def.Cycle})
	}
	return out
}

// dependRows are pg_depend's rows joind keeps: a sequence's ownership by
// a column, plpgsql's members (describe.go).
func dependRows(s *Snapshot) []pgDependRow {
	out := extensionDependRows()
	for _, def := range s.sequences() {
		r, i, ok := s.ownerColumn(def)
		if !ok {
			continue
		}
		kind := byte('a')
		if r.Columns[i].Identity != 0 {
			kind = 'i'
		}
		out = append(out, pgDependRow{Classid: 1259, Objid: def.ObjectID(), Refclassid: 1259, Refobjid: r.OID,
			Refobjsubid: int32(i + 1), Deptype: Char(kind)})
	}
	return out
}

func declareSequences() {
	declare(pc, "pg_sequences", 12048, 'v', func(s *Snapshot) []pgSequencesRow {
		var out []pgSequencesRow
		sc, _ := s.cat.(storage.SequenceCatalog)
		for _, def := range s.sequences() {
			ns, name := s.seqNamespace(def)
			row := pgSequencesRow{Schemaname: Name(ns.Name), Sequencename: Name(name), Sequenceowner: Name(s.user()),
				DataType: FormatType(seqTypeOID(def), -1, true), StartValue: def.Start, MinValue: def.Min, MaxValue: def.Max,
				IncrementBy: def.Increment, Cycle: def.Cycle, CacheSize: def.Cache}
			if st, ok := sc.SequenceState(def.Name); ok && st.IsCalled {
				v := st.LastValue
				row.LastValue = &v
			}
			out = append(out, row)
		}
		return out
	})
	declare(is, "sequences", 13386, 'v', func(s *Snapshot) []isSequencesRow {
		var out []isSequencesRow
		for _, def := range s.sequences() {
			// Identity columns' sequences are not listed (PostgreSQL's
			// view skips them).
			if r, i, ok := s.ownerColumn(def); ok && r.Columns[i].Identity != 0 {
				continue
			}
			prec := map[types.ID]int32{types.Int2: 16, types.Int4: 32, types.Int8: 64}[def.Type]
			cycle := "NO"
			if def.Cycle {
				cycle = "YES"
			}
			f := func(v int64) string { return strconv.FormatInt(v, 10) }
			ns, name := s.seqNamespace(def)
			out = append(out, isSequencesRow{SequenceCatalog: s.database(), SequenceSchema: ns.Name, SequenceName: name,
				DataType: FormatType(seqTypeOID(def), -1, true), NumericPrecision: prec, NumericPrecisionRadix: 2,
				StartValue: f(def.Start), MinimumValue: f(def.Min), MaximumValue: f(def.Max), Increment: f(def.Increment),
				CycleOption: cycle})
		}
		return out
	})
	f := &Func{Names: []string{"pg_get_serial_sequence"}, MinArgs: 2, MaxArgs: 2, Args: []types.Type{text, text}, Result: text,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			parts := SplitQualified(v[0].S)
			schema, rel := "", parts[len(parts)-1]
			if len(parts) == 2 {
				schema = parts[0]
			}
			r, ok := s.RelationByName(schema, rel)
			if !ok {
				return types.NullValue
			}
			for _, def := range s.sequences() {
				if or, i, ok := s.ownerColumn(def); ok && or.OID == r.OID && or.Columns[i].Name == v[1].S {
					ns, name := s.seqNamespace(def)
					return types.TextValue(QuoteIdentifier(ns.Name) + "." + QuoteIdentifier(name))
				}
			}
			return types.NullValue
		}}
	funcs = append(funcs, f)
	funcByName[f.Names[0]] = append(funcByName[f.Names[0]], f)
}

// identityColumn fills information_schema.columns' identity fields.
func identityColumn(s *Snapshot, r Relation, col storage.ColumnDef, row *isColumnsRow) {
	if col.Identity == 0 {
		return
	}
	for _, def := range s.sequences() {
		if def.OwnedTable != r.Name || def.OwnedColumn != col.Name {
			continue
		}
		gen := "BY DEFAULT"
		if col.Identity == storage.IdentityAlways {
			gen = "ALWAYS"
		}
		str := func(v int64) *string { x := strconv.FormatInt(v, 10); return &x }
		row.IsIdentity, row.IdentityGeneration = "YES", &gen
		row.IdentityStart, row.IdentityIncrement = str(def.Start), str(def.Increment)
		row.IdentityMaximum, row.IdentityMinimum = str(def.Max), str(def.Min)
		if def.Cycle {
			row.IdentityCycle = "YES"
		}
	}
}

// regclassOID is a regclass literal by OID in a stored expression.
var regclassOID = regexp.MustCompile(`'([0-9]+)'::regclass`)

// regclassNames prints a stored expression's regclass OIDs by name
// (quoted, as pg_get_expr prints a regclass constant).
func (s *Snapshot) regclassNames(expr string) string {
	if !strings.Contains(expr, "::regclass") {
		return expr
	}
	return regclassOID.ReplaceAllStringFunc(expr, func(m string) string {
		oid, err := strconv.ParseUint(regclassOID.FindStringSubmatch(m)[1], 10, 32)
		if err != nil {
			return m
		}
		return "'" + strings.ReplaceAll(s.RegOut("regclass", int64(oid)), "'", "''") + "'::regclass"
	})
}
