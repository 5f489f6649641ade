package engine

import (
	"strings"
	"sync"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/settings"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// The session's settings live in a settings.Values (the one registry of
// joind's settings and PostgreSQL's SET/RESET semantics); this file maps
// statements and transaction boundaries onto it.

// set runs SET, SET LOCAL, SET ... TO DEFAULT, RESET and RESET ALL.
func (s *session) set(x *sql.Set, w wire.ResultWriter) (string, error) {
	tag := "SET"
	if x.Reset && !x.Default {
		tag = "RESET"
	}
	if x.Local && !s.fsm.state.inTransactionBlock() {
		// It lasts only until this statement's own transaction ends.
		what := "SET LOCAL"
		if x.Transaction {
			what = "SET TRANSACTION"
		}
		if err := w.Notice(&pgerr.Error{Severity: "WARNING", Code: "25P01", Message: what + " can only be used in transaction blocks"}); err != nil {
			return "", err
		}
	}
	if err := s.applySet(x); err != nil {
		return "", err
	}
	return tag, nil
}

// applySet applies one SET or RESET (and the further modes of a SET
// TRANSACTION).
func (s *session) applySet(x *sql.Set) error {
	var err error
	switch {
	case x.All:
		s.settings.ResetAll()
	case x.Reset:
		_, err = s.settings.Reset(x.Name, x.Local)
	default:
		if err = s.checkIsolationChange(x); err == nil {
			_, err = s.settings.SetArgs(x.Name, x.Args, x.Local)
		}
	}
	if err != nil {
		return err
	}
	for i := range x.Also {
		if err := s.applySet(&x.Also[i]); err != nil {
			return err
		}
	}
	return nil
}

// show runs SHOW name and SHOW ALL.
func (s *session) show(x *sql.Show, w wire.ResultWriter) error {
	text := func(name string) wire.ColumnDesc {
		return wire.ColumnDesc{Name: name, TypeOID: types.OIDText, TypeSize: -1, TypeMod: -1}
	}
	if x.Name == "all" {
		if err := w.Describe([]wire.ColumnDesc{text("name"), text("setting"), text("description")}); err != nil {
			return err
		}
		for _, r := range s.settings.ShowAll() {
			if err := w.Row([][]byte{[]byte(r[0]), []byte(r[1]), []byte(r[2])}); err != nil {
				return err
			}
		}
		return nil
	}
	v, _, err := s.settings.Show(x.Name)
	if err != nil {
		return err
	}
	if err := w.Describe([]wire.ColumnDesc{text(showColumn(x.Name))}); err != nil {
		return err
	}
	return w.Row([][]byte{[]byte(v)})
}

// showColumn is SHOW's column name: the setting's canonical name, or the
// name as written for a custom option.
func showColumn(name string) string {
	if st, err := settings.Lookup(name); err == nil {
		return st.Name
	}
	return name
}

// beginStatementSettings opens the settings' transaction level for a
// statement that runs outside a block (a block's level is already open);
// the state machine's actions end it with the transaction.
func (s *session) beginStatementSettings() { s.settings.Begin() }

// settingsAccess gives expressions (current_setting, set_config) the
// session's settings; partitions evaluate on several goroutines.
type settingsAccess struct {
	mu sync.Mutex
	s  *session
}

func (a *settingsAccess) Current(name string, missingOK bool) (string, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	v, _, err := a.s.settings.Show(name)
	if err != nil {
		if missingOK && pgerr.Code(err) == pgerr.UndefinedObject {
			return "", false, nil
		}
		return "", false, err
	}
	return v, true, nil
}

func (a *settingsAccess) SetConfig(name string, value *string, local bool) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var err error
	switch {
	case strings.EqualFold(name, "session_authorization"):
		x := &sql.SetRole{SessionAuth: true, Local: local}
		if value != nil {
			x.Name = *value
		}
		_, err = a.s.setSessionAuthorization(x)
	case value == nil:
		_, err = a.s.settings.Reset(name, local)
	default:
		_, err = a.s.settings.Set(name, *value, local)
	}
	if err != nil {
		return "", err
	}
	v, _, err := a.s.settings.Show(name)
	return v, err
}

// loadZone resolves a TimeZone setting to a location with PostgreSQL's
// rules (names, abbreviations, numeric hours east, POSIX strings west).
func loadZone(name string) (*time.Location, error) {
	return types.LoadTimeZone(name)
}

// statementTimeout is statement_timeout (0: none).
func (s *session) statementTimeout() time.Duration {
	return time.Duration(settings.Int64(s.settings.Get("statement_timeout"))) * time.Millisecond
}

// memoryLimit is the query memory limit in bytes: joind.memory_limit when
// set, else the server's memory_limit (0: none).
func (s *session) memoryLimit() int64 {
	if kb := settings.Int64(s.settings.Get("joind.memory_limit")); kb > 0 {
		return kb << 10
	}
	return s.eng.opts.MemoryLimit
}
