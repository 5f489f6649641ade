package engine

import (
	"strings"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

func (s *session) set(x *sql.Set) (string, error) {
	if x.Reset {
		if x.All {
			for _, st := range settingList {
				if !st.readOnly {
					s.settings[strings.ToLower(st.name)] = st.dflt
				}
			}
			return "RESET", nil
		}
		return "RESET", s.settings.reset(x.Name)
	}
	if strings.EqualFold(x.Value, "default") {
		return "SET", s.settings.reset(x.Name)
	}
	return "SET", s.settings.set(x.Name, x.Value)
}

func (s *session) show(x *sql.Show, w wire.ResultWriter) error {
	text := func(name string) wire.ColumnDesc {
		return wire.ColumnDesc{Name: name, TypeOID: types.OIDText, TypeSize: -1, TypeMod: -1}
	}
	if x.Name == "all" {
		if err := w.Describe([]wire.ColumnDesc{text("name"), text("setting"), text("description")}); err != nil {
			return err
		}
		for _, name := range settingNames() {
			if err := w.Row([][]byte{[]byte(name), []byte(s.settings[strings.ToLower(name)]), []byte("")}); err != nil {
				return err
			}
		}
		return nil
	}
	st, err := lookupSetting(x.Name)
	if err != nil {
		return err
	}
	if err := w.Describe([]wire.ColumnDesc{text(st.name)}); err != nil {
		return err
	}
	return w.Row([][]byte{[]byte(s.settings[strings.ToLower(st.name)])})
}

// transaction runs transaction-control statements. joind tracks the block
// state PostgreSQL clients rely on (ReadyForQuery T/E, 25P02 after an error);
// writes inside a block are applied as they run — atomic COMMIT/ROLLBACK of
// a block's writes comes with the transactional storage.
func (s *session) transaction(x *sql.Transaction, w wire.ResultWriter) (string, error) {
	warn := func(msg string) error {
		return w.Notice(&pgerr.Error{Severity: "WARNING", Code: "25000", Message: msg})
	}
	switch x.Kind {
	case sql.TxBegin:
		if s.tx != txIdle {
			if err := warn("there is already a transaction in progress"); err != nil {
				return "", err
			}
		}
		s.tx = txOpen
		return "BEGIN", nil
	case sql.TxCommit:
		was := s.tx
		s.tx = txIdle
		switch was {
		case txIdle:
			return "COMMIT", warn("there is no transaction in progress")
		case txFailed:
			return "ROLLBACK", nil
		}
		return "COMMIT", nil
	case sql.TxRollback:
		was := s.tx
		s.tx = txIdle
		if was == txIdle {
			return "ROLLBACK", warn("there is no transaction in progress")
		}
		return "ROLLBACK", nil
	case sql.TxSavepoint, sql.TxRelease, sql.TxRollbackTo:
		names := map[sql.TxKind]string{sql.TxSavepoint: "SAVEPOINT", sql.TxRelease: "RELEASE", sql.TxRollbackTo: "ROLLBACK"}
		if s.tx == txIdle {
			return "", pgerr.New("25P01", "%s can only be used in transaction blocks", map[sql.TxKind]string{
				sql.TxSavepoint: "SAVEPOINT", sql.TxRelease: "RELEASE SAVEPOINT", sql.TxRollbackTo: "ROLLBACK TO SAVEPOINT"}[x.Kind])
		}
		if x.Kind == sql.TxRollbackTo {
			s.tx = txOpen
		}
		return names[x.Kind], nil
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "transaction statement not supported")
}
