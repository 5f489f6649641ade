package settings

import (
	"strconv"
	"strings"
)

// Source is where a setting's current value came from (pg_settings.source).
type Source uint8

const (
	SourceDefault  Source = iota // the boot value
	SourceClient                 // the startup packet (parameters, options -c)
	SourceOverride               // set by the server (transaction_isolation at transaction start)
	SourceSession                // SET, set_config()
)

func (s Source) String() string {
	return [...]string{"default", "client", "override", "session"}[s]
}

// value is a canonical value and its source.
type value struct {
	v   string
	src Source
}

// variable is one setting's state in a session.
type variable struct {
	def   *Setting
	cur   value
	reset value // what RESET restores: the startup value or the boot value
}

// Stack states of a variable at one nest level, as guc.c's GucStackState.
type stackState uint8

const (
	stSet      stackState = iota // SET: kept at commit
	stLocal                      // SET LOCAL: undone at commit
	stSetLocal                   // SET then SET LOCAL: commit restores the SET's value (masked)
)

type stackEntry struct {
	state  stackState
	prior  value // the value before this level touched it (restored on abort)
	masked value // stSetLocal: the SET's value
}

// level is one transaction nest level: the transaction (level 1) or a
// savepoint.
type level struct {
	savepoint string
	entries   map[*variable]*stackEntry
}

// Values is one session's settings. It is not safe for concurrent use.
type Values struct {
	vars  map[string]*variable // by lower-case name: registry settings and placeholders
	order []*variable          // registry settings in SHOW ALL order
	stack []*level
	gen   uint64 // counts the changes of any value (Gen)
}

// Gen changes whenever some setting's value does: a prepared statement's
// cached binding (engine/plancache.go) is reused only while it is the same.
func (v *Values) Gen() uint64 { return v.gen }

// setCur is every change of a current value.
func (v *Values) setCur(x *variable, val value) {
	if x.cur.v != val.v {
		v.gen++
	}
	x.cur = val
}

// New returns a session's settings at their boot values; user is the
// session user (session_authorization).
func New(user string) *Values {
	v := &Values{vars: make(map[string]*variable, len(registry))}
	for _, s := range All() {
		boot := s.Boot
		if s.Name == "session_authorization" {
			boot = user
		}
		x := &variable{def: s, cur: value{v: boot}, reset: value{v: boot}}
		v.vars[strings.ToLower(s.Name)] = x
		v.order = append(v.order, x)
	}
	return v
}

// lookup finds a variable; create makes a placeholder for a custom option
// name (a.b) that has none yet. A placeholder, once made, lasts for the
// session (a rolled-back SET leaves it with its reset value, ""), as in
// PostgreSQL.
func (v *Values) lookup(name string, create bool) (*variable, error) {
	if s, err := Lookup(name); err == nil {
		return v.vars[strings.ToLower(s.Name)], nil
	}
	key := strings.ToLower(name)
	if x, ok := v.vars[key]; ok {
		return x, nil
	}
	if err := placeholderName(name); err != nil {
		if !create {
			return nil, unrecognized(name)
		}
		return nil, err
	}
	if !create {
		return nil, unrecognized(name)
	}
	x := &variable{def: &Setting{Name: key, Kind: String, placeholder: true}}
	v.vars[key] = x
	return x, nil
}

// Startup applies a startup-packet parameter: it becomes the current and
// the reset value, with source client.
func (v *Values) Startup(name, val string) error {
	x, err := v.lookup(name, true)
	if err != nil {
		return err
	}
	c, err := x.def.normalize(val, x.cur.v, name, true)
	if err != nil {
		return err
	}
	v.setCur(x, value{c, SourceClient})
	x.reset = x.cur
	return nil
}

// Set is SET name = val (local: SET LOCAL), set_config(); it returns the
// setting.
func (v *Values) Set(name, val string, local bool) (*Setting, error) {
	x, err := v.lookup(name, true)
	if err != nil {
		return nil, err
	}
	c, err := x.def.Normalize(val, x.cur.v, name)
	if err != nil {
		return nil, err
	}
	v.assign(x, value{c, SourceSession}, local)
	return x.def, nil
}

// SetArgs is SET name = a, b, ...: the list is flattened for the setting
// first.
func (v *Values) SetArgs(name string, args []string, local bool) (*Setting, error) {
	x, err := v.lookup(name, true)
	if err != nil {
		return nil, err
	}
	val, err := x.def.Flatten(args, name)
	if err != nil {
		return nil, err
	}
	return v.Set(name, val, local)
}

// Reset is RESET name and SET name TO DEFAULT (local: SET LOCAL ... TO
// DEFAULT): the value the session started with.
func (v *Values) Reset(name string, local bool) (*Setting, error) {
	x, err := v.lookup(name, true)
	if err != nil {
		return nil, err
	}
	if err := x.def.contextError(false); err != nil {
		return nil, err
	}
	v.assign(x, x.reset, local)
	return x.def, nil
}

// ResetAll is RESET ALL.
func (v *Values) ResetAll() {
	for _, x := range v.order {
		if x.def.contextError(false) == nil && !x.def.NoResetAll {
			v.assign(x, x.reset, false)
		}
	}
	for _, x := range v.vars {
		if x.def.placeholder {
			v.assign(x, x.reset, false)
		}
	}
}

// assign stores a value, first saving the old one in the current nest
// level (guc.c's push_old_value) so the transaction can undo it.
func (v *Values) assign(x *variable, val value, local bool) {
	if n := len(v.stack); n > 0 {
		lv := v.stack[n-1]
		if e, ok := lv.entries[x]; ok {
			switch {
			case !local:
				e.state = stSet // SET overrides any earlier action at this level
			case e.state == stSet:
				e.masked, e.state = x.cur, stSetLocal
			}
		} else {
			st := stSet
			if local {
				st = stLocal
			}
			lv.entries[x] = &stackEntry{state: st, prior: x.cur}
		}
	}
	v.setCur(x, val)
}

// InTransaction reports whether a transaction level is open.
func (v *Values) InTransaction() bool { return len(v.stack) > 0 }

// Begin opens the transaction level: a statement outside a block, a
// multi-statement query or a BEGIN block. Settings with TxStart take their
// default's value.
func (v *Values) Begin() {
	if len(v.stack) > 0 {
		return
	}
	v.push("")
	for _, x := range v.order {
		if x.def.TxStart != "" {
			v.setCur(x, value{v.vars[strings.ToLower(x.def.TxStart)].cur.v, SourceOverride})
		}
	}
}

func (v *Values) push(savepoint string) {
	v.stack = append(v.stack, &level{savepoint: savepoint, entries: map[*variable]*stackEntry{}})
}

// Savepoint opens a nest level for SAVEPOINT name.
func (v *Values) Savepoint(name string) {
	if len(v.stack) > 0 {
		v.push(name)
	}
}

// savepointLevel is the index of the innermost level of that savepoint
// (-1: none).
func (v *Values) savepointLevel(name string) int {
	for i := len(v.stack) - 1; i > 0; i-- {
		if v.stack[i].savepoint == name {
			return i
		}
	}
	return -1
}

// Release is RELEASE SAVEPOINT name: the levels from the savepoint's up
// merge into the one below.
func (v *Values) Release(name string) {
	if i := v.savepointLevel(name); i > 0 {
		for len(v.stack) > i {
			v.end(true)
		}
	}
}

// RollbackTo is ROLLBACK TO SAVEPOINT name: the savepoint's changes are
// undone and the savepoint stays open.
func (v *Values) RollbackTo(name string) {
	if i := v.savepointLevel(name); i > 0 {
		for len(v.stack) > i {
			v.end(false)
		}
		v.push(name)
	}
}

// Commit ends the transaction keeping its SETs (SET LOCALs are undone).
func (v *Values) Commit() {
	for len(v.stack) > 0 {
		v.end(true)
	}
}

// Abort ends the transaction undoing its SETs and RESETs.
func (v *Values) Abort() {
	for len(v.stack) > 0 {
		v.end(false)
	}
}

// end closes the innermost level as guc.c's AtEOXact_GUC.
func (v *Values) end(commit bool) {
	n := len(v.stack)
	lv := v.stack[n-1]
	v.stack = v.stack[:n-1]
	for x, e := range lv.entries {
		switch {
		case !commit:
			v.setCur(x, e.prior)
		case n == 1: // the transaction itself
			switch e.state {
			case stLocal:
				v.setCur(x, e.prior)
			case stSetLocal:
				v.setCur(x, e.masked)
			}
		default: // a savepoint, released: merge into the level below
			parent := v.stack[n-2]
			pe, ok := parent.entries[x]
			if !ok {
				parent.entries[x] = e
				continue
			}
			switch e.state {
			case stSet:
				pe.state = stSet
			case stLocal:
				if pe.state == stSet {
					pe.masked, pe.state = e.prior, stSetLocal
				}
			case stSetLocal:
				pe.masked, pe.state = e.masked, stSetLocal
			}
		}
	}
}

// Get returns the canonical value of a registered setting by its name
// ("" for an unknown one): for the engine's own use.
func (v *Values) Get(name string) string {
	if x, ok := v.vars[strings.ToLower(name)]; ok {
		return x.cur.v
	}
	return ""
}

// Show returns what SHOW and current_setting() print, and the setting's
// canonical name.
func (v *Values) Show(name string) (shown, canonical string, err error) {
	x, err := v.lookup(name, false)
	if err != nil {
		return "", "", err
	}
	return x.def.Show(x.cur.v), x.def.Name, nil
}

// Reported returns the ParameterStatus settings by canonical name.
func (v *Values) Reported() map[string]string {
	out := map[string]string{}
	for _, x := range v.order {
		if x.def.Report {
			out[x.def.Name] = x.def.Show(x.cur.v)
		}
	}
	return out
}

// ShowAll returns SHOW ALL's rows: name, setting, description.
func (v *Values) ShowAll() [][3]string {
	var out [][3]string
	for _, x := range v.order {
		if !x.def.NoShowAll {
			out = append(out, [3]string{x.def.Name, x.def.Show(x.cur.v), x.def.Desc})
		}
	}
	return out
}

// Row is one pg_settings row; empty strings in Unit, MinVal, MaxVal and
// EnumVals are NULL.
type Row struct {
	Name, Setting, Unit, Category, ShortDesc, ExtraDesc, Context, Vartype, Source string
	MinVal, MaxVal, EnumVals, BootVal, ResetVal                                   string
}

// Rows returns pg_settings' rows.
func (v *Values) Rows() []Row {
	var out []Row
	for _, x := range v.order {
		d := x.def
		if d.NoShowAll {
			continue
		}
		boot := d.Boot
		if d.hasBootVal {
			boot = d.BootVal
		}
		r := Row{Name: d.Name, Setting: x.cur.v, Unit: d.Unit.String(), Category: d.Category, ShortDesc: d.Desc,
			ExtraDesc: d.ExtraDesc, Context: d.Context.String(), Vartype: d.Kind.String(), Source: x.cur.src.String(),
			BootVal: boot, ResetVal: x.reset.v}
		if d.fixedResetVal != nil {
			r.ResetVal = *d.fixedResetVal
		}
		switch d.Kind {
		case Int:
			r.MinVal, r.MaxVal = itoa(d.Min), itoa(d.Max)
		case Real:
			r.MinVal, r.MaxVal = formatG(d.RealMin), formatG(d.RealMax)
		}
		if d.Kind == Enum {
			r.EnumVals = enumArray(d.Values)
		}
		out = append(out, r)
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// enumArray renders enum values as a text[] literal.
func enumArray(vals []string) string {
	parts := make([]string, len(vals))
	for i, s := range vals {
		if s == "" || strings.ContainsAny(s, " ,{}\"\\") {
			s = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
		}
		parts[i] = s
	}
	return "{" + strings.Join(parts, ",") + "}"
}
