package engine

import (
	"context"
	"strings"
	"time"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

func (s *session) set(x *sql.Set) (string, error) {
	if tag, err, done := s.setScoped(x); done {
		return tag, err
	}
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
	return w.Row([][]byte{[]byte(s.settingValue(st.name))})
}

// transaction runs transaction-control statements. BEGIN opens a
// storage transaction that the block's statements read and write through;
// COMMIT makes its changes durable and visible atomically, ROLLBACK (or
// COMMIT of a failed block) discards them. Savepoints snapshot the
// transaction's pending changes.
func (s *session) transaction(ctx context.Context, x *sql.Transaction, w wire.ResultWriter) (string, error) {
	warn := func(msg string) error {
		return w.Notice(&pgerr.Error{Severity: "WARNING", Code: "25000", Message: msg})
	}
	switch x.Kind {
	case sql.TxBegin:
		if s.tx != txIdle {
			if err := warn("there is already a transaction in progress"); err != nil {
				return "", err
			}
			return "BEGIN", nil
		}
		if s.multiTxn != nil {
			// BEGIN inside a multi-statement query: the implicit
			// transaction becomes the explicit block.
			s.txn, s.multiTxn = s.multiTxn, nil
		} else {
			s.txn = s.eng.catalog.Begin()
		}
		s.tx = txOpen
		s.txStart = time.Now()
		s.saveBlockSettings()
		return "BEGIN", nil
	case sql.TxCommit:
		was, txn := s.tx, s.txn
		s.txn, s.tx = nil, txIdle
		switch was {
		case txIdle:
			if err := s.endImplicitBlock(ctx, true); err != nil {
				return "", err
			}
			return "COMMIT", warn("there is no transaction in progress")
		case txFailed:
			txn.Rollback()
			s.restoreBlockSettings()
			return "ROLLBACK", nil
		}
		s.endBlockSettings()
		if err := txn.Commit(ctx); err != nil {
			return "", err
		}
		return "COMMIT", nil
	case sql.TxRollback:
		was := s.tx
		s.abortBlock()
		if was == txIdle {
			if err := s.endImplicitBlock(ctx, false); err != nil {
				return "", err
			}
			return "ROLLBACK", warn("there is no transaction in progress")
		}
		return "ROLLBACK", nil
	case sql.TxSavepoint, sql.TxRelease, sql.TxRollbackTo:
		if s.tx == txIdle {
			return "", pgerr.New("25P01", "%s can only be used in transaction blocks", map[sql.TxKind]string{
				sql.TxSavepoint: "SAVEPOINT", sql.TxRelease: "RELEASE SAVEPOINT", sql.TxRollbackTo: "ROLLBACK TO SAVEPOINT"}[x.Kind])
		}
		switch x.Kind {
		case sql.TxSavepoint:
			s.txn.Savepoint(x.Savepoint)
			return "SAVEPOINT", nil
		case sql.TxRelease:
			return "RELEASE", s.txn.Release(x.Savepoint)
		}
		if err := s.txn.RollbackTo(x.Savepoint); err != nil {
			return "", err
		}
		s.tx = txOpen
		return "ROLLBACK", nil
	}
	return "", pgerr.New(pgerr.FeatureNotSupported, "transaction statement not supported")
}
