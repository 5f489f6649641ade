package storage

import (
	"context"
	"fmt"
	"sort"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// User-defined functions (CREATE FUNCTION ... LANGUAGE sql). A function is
// catalog metadata like a schema (schema.go): committed functions live in
// the version (a map replaced, never modified), a transaction's changes in
// its pending set, and the manifest lists them after the tables, whose row
// types their arguments and results may name. The body is kept as SQL
// text; the binder binds it afresh at each call, as it does a view. Its
// owner is the role catalog's (Auth), by the function's OID.

// FuncArg is one declared parameter of a function.
type FuncArg struct {
	Name string
	// Mode is pg_proc.proargmodes' letter: 'i' IN, 'o' OUT, 'b' INOUT,
	// 'v' VARIADIC, 't' a RETURNS TABLE column.
	Mode byte
	Type types.Type
	// Default is the SQL text of the DEFAULT expression ("" = none).
	Default string
}

// Input reports whether the parameter is an input (IN, INOUT, VARIADIC).
func (a FuncArg) Input() bool { return a.Mode == 'i' || a.Mode == 'b' || a.Mode == 'v' }

// Output reports whether the parameter is a result column (OUT, INOUT,
// TABLE).
func (a FuncArg) Output() bool { return a.Mode == 'o' || a.Mode == 'b' || a.Mode == 't' }

// Function is a user-defined function.
type Function struct {
	ID     uint64 // from the DB's id sequence: OID FirstUserOID + 2*ID
	Schema uint64 // the schema's id (PublicSchemaID: public)
	Name   string
	Args   []FuncArg
	// Result is the declared result type (record for several OUT
	// parameters or RETURNS TABLE); RetSet is SETOF / TABLE.
	Result types.Type
	RetSet bool
	// Volatility is pg_proc.provolatile: 'i', 's' or 'v'.
	Volatility byte
	Strict     bool
	// SecDef and Leakproof are recorded for pg_proc (joind runs every
	// function as its caller and plans none as leakproof).
	SecDef, Leakproof bool
	Language          string // "sql"
	// Body is the function's source: prosrc of AS '...', or the
	// statements of a SQL-standard body (Atomic), deparsed.
	Body   string
	Atomic bool
}

// OID is the function's pg_proc OID.
func (f Function) OID() uint32 { return FirstUserOID + 2*uint32(f.ID) }

// InputTypes are the types of its input parameters, in order
// (pg_proc.proargtypes): what tells overloads apart.
func (f Function) InputTypes() []types.Type {
	var out []types.Type
	for _, a := range f.Args {
		if a.Input() {
			out = append(out, a.Type)
		}
	}
	return out
}

// FunctionCatalog is implemented by catalogs that keep user functions (a
// DB's transactions).
type FunctionCatalog interface {
	// Functions lists the functions, by id.
	Functions() []Function
	// CreateFunction adds f, numbering it; 42723 if its schema has a
	// function of that name and input types.
	CreateFunction(ctx context.Context, f Function) (Function, error)
	// ReplaceFunction replaces the function of id f.ID by f.
	ReplaceFunction(ctx context.Context, f Function) error
	// DropFunction removes the function of that id.
	DropFunction(ctx context.Context, id uint64) error
}

var _ FunctionCatalog = (*Txn)(nil)

type funcChange struct {
	def  *Function // nil = dropped
	base *Function
}

func (t *Txn) funcDefs() map[uint64]*Function {
	base := t.version().funcs
	if t.taken && t.iso >= RepeatableRead {
		base = t.db.cs.load().funcs
	}
	if len(t.p.funcs) == 0 {
		return base
	}
	return overlayFuncs(base, t.p.funcs)
}

// overlayFuncs is base with changes applied, a new map.
func overlayFuncs(base map[uint64]*Function, changes map[uint64]funcChange) map[uint64]*Function {
	out := make(map[uint64]*Function, len(base)+len(changes))
	for id, f := range base {
		out[id] = f
	}
	for id, ch := range changes {
		if ch.def == nil {
			delete(out, id)
		} else {
			out[id] = ch.def
		}
	}
	return out
}

// Functions implements FunctionCatalog.
func (t *Txn) Functions() []Function {
	var out []Function
	for _, f := range t.funcDefs() {
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// funcKey tells a schema's overloads apart: name and input types.
func funcKey(f *Function) string {
	k := fmt.Sprintf("%d.%s(", f.Schema, f.Name)
	for _, t := range f.InputTypes() {
		k += fmt.Sprintf("%d,", t.CatalogOID())
	}
	return k + ")"
}

func errFuncExists(f *Function) error {
	return pgerr.New("42723", "function \"%s\" already exists with same argument types", f.Name)
}

// CreateFunction implements FunctionCatalog.
func (t *Txn) CreateFunction(ctx context.Context, f Function) (Function, error) {
	if t.done {
		return Function{}, errDone
	}
	k := funcKey(&f)
	for _, x := range t.funcDefs() {
		if funcKey(x) == k {
			return Function{}, errFuncExists(&f)
		}
	}
	f.ID = t.db.nextID.Add(1) - 1
	t.setFunc(f.ID, &f)
	return f, nil
}

// ReplaceFunction implements FunctionCatalog.
func (t *Txn) ReplaceFunction(ctx context.Context, f Function) error {
	if t.done {
		return errDone
	}
	if _, ok := t.funcDefs()[f.ID]; !ok {
		return pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", f.Name)
	}
	t.setFunc(f.ID, &f)
	return nil
}

// DropFunction implements FunctionCatalog.
func (t *Txn) DropFunction(ctx context.Context, id uint64) error {
	if t.done {
		return errDone
	}
	t.setFunc(id, nil)
	return nil
}

func (t *Txn) setFunc(id uint64, def *Function) {
	if t.p.funcs == nil {
		t.p.funcs = map[uint64]funcChange{}
	}
	ch, ok := t.p.funcs[id]
	if !ok {
		ch.base = t.version().funcs[id]
	}
	ch.def = def
	if ch.def == nil && ch.base == nil {
		delete(t.p.funcs, id) // created and dropped by this transaction
		return
	}
	t.p.funcs[id] = ch
}

func cloneFuncs(m map[uint64]funcChange) map[uint64]funcChange {
	if m == nil {
		return nil
	}
	out := make(map[uint64]funcChange, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// validateFuncs fails a commit whose functions a concurrent commit
// changed, or that would give two functions one signature.
func validateFuncs(work *version, p *pending) error {
	if len(p.funcs) == 0 {
		return nil
	}
	for id, ch := range p.funcs {
		if work.funcs[id] != ch.base {
			return pgerr.New(codeSerialization, "could not serialize access: a function was changed by a concurrent transaction")
		}
	}
	seen := map[string]bool{}
	for _, f := range overlayFuncs(work.funcs, p.funcs) {
		k := funcKey(f)
		if seen[k] {
			return errFuncExists(f)
		}
		seen[k] = true
	}
	return nil
}

func applyFuncs(work *version, p *pending) {
	if len(p.funcs) > 0 {
		work.funcs = overlayFuncs(work.funcs, p.funcs)
	}
}

// funcJSON is a function's manifest entry.
type funcJSON struct {
	ID         uint64        `json:"id"`
	Schema     uint64        `json:"schema,omitempty"`
	Name       string        `json:"name"`
	Args       []funcArgJSON `json:"args,omitempty"`
	ResultOID  uint32        `json:"result_oid"`
	ResultMod  int32         `json:"result_typmod"`
	RetSet     bool          `json:"retset,omitempty"`
	Volatility string        `json:"volatility"`
	Strict     bool          `json:"strict,omitempty"`
	SecDef     bool          `json:"secdef,omitempty"`
	Leakproof  bool          `json:"leakproof,omitempty"`
	Language   string        `json:"language"`
	Body       string        `json:"body"`
	Atomic     bool          `json:"atomic,omitempty"`
}

type funcArgJSON struct {
	Name    string `json:"name,omitempty"`
	Mode    string `json:"mode"`
	OID     uint32 `json:"oid"`
	Typmod  int32  `json:"typmod"`
	Default string `json:"default,omitempty"`
}

func sortedFuncs(v *version) []funcJSON {
	out := make([]funcJSON, 0, len(v.funcs))
	for _, f := range v.funcs {
		j := funcJSON{ID: f.ID, Schema: f.Schema, Name: f.Name, ResultOID: f.Result.CatalogOID(), ResultMod: f.Result.Typmod,
			RetSet: f.RetSet, Volatility: string(f.Volatility), Strict: f.Strict, SecDef: f.SecDef, Leakproof: f.Leakproof, Language: f.Language, Body: f.Body, Atomic: f.Atomic}
		for _, a := range f.Args {
			j.Args = append(j.Args, funcArgJSON{Name: a.Name, Mode: string(a.Mode), OID: a.Type.CatalogOID(), Typmod: a.Type.Typmod, Default: a.Default})
		}
		out = append(out, j)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// decodeFuncs loads the manifest's functions, after the tables and types
// their parameters name.
func decodeFuncs(v *version, list []funcJSON) error {
	if len(list) == 0 {
		return nil
	}
	v.funcs = make(map[uint64]*Function, len(list))
	for _, x := range list {
		if v.funcs[x.ID] != nil || len(x.Volatility) != 1 {
			return fmt.Errorf("function %q (id %d) listed twice or of no volatility", x.Name, x.ID)
		}
		res, ok := funcType(x.ResultOID, x.ResultMod)
		if !ok {
			return fmt.Errorf("function %q has unknown result type OID %d", x.Name, x.ResultOID)
		}
		f := &Function{ID: x.ID, Schema: x.Schema, Name: x.Name, Result: res, RetSet: x.RetSet,
			Volatility: x.Volatility[0], Strict: x.Strict, SecDef: x.SecDef, Leakproof: x.Leakproof, Language: x.Language, Body: x.Body, Atomic: x.Atomic}
		for _, a := range x.Args {
			at, ok := funcType(a.OID, a.Typmod)
			if !ok || len(a.Mode) != 1 {
				return fmt.Errorf("function %q has a parameter of unknown type OID %d", x.Name, a.OID)
			}
			f.Args = append(f.Args, FuncArg{Name: a.Name, Mode: a.Mode[0], Type: at, Default: a.Default})
		}
		v.funcs[x.ID] = f
	}
	return nil
}

// funcType is a stored parameter or result type: void and record besides
// the types a column may have.
func funcType(oid uint32, typmod int32) (types.Type, bool) {
	switch oid {
	case types.OIDVoid:
		return types.VoidType, true
	case types.OIDRecord:
		return types.Type{ID: types.Record, Typmod: -1}, true
	}
	return storedType(oid, typmod)
}
