package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/wire"
)

// rowsWriter keeps the text rows a statement sends.
type rowsWriter struct{ rows []string }

func (w *rowsWriter) Describe([]wire.ColumnDesc) error { return nil }
func (w *rowsWriter) Row(r [][]byte) error {
	var f []string
	for _, v := range r {
		f = append(f, string(v))
	}
	w.rows = append(w.rows, strings.Join(f, "|"))
	return nil
}
func (w *rowsWriter) Notice(*pgerr.Error) error { return nil }

type cursorStep struct {
	sql, tag string
	rows     string // space-separated rows, or the SQLSTATE for an error
}

func runCursorSteps(t *testing.T, steps []cursorStep) {
	t.Helper()
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ws, err := e.NewSession(context.Background(), map[string]string{"user": "cur"})
	if err != nil {
		t.Fatal(err)
	}
	s := ws.(*session)
	defer s.Close()
	for _, st := range steps {
		sts, err := s.Parse(st.sql)
		if err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		w := &rowsWriter{}
		tag, err := s.Execute(context.Background(), sts[0], w)
		if err != nil {
			if got := pgerr.Code(err); got != st.rows || st.tag != "" {
				t.Errorf("%s: error %s (%v), want tag %q rows %q", st.sql, got, err, st.tag, st.rows)
			}
			continue
		}
		if got := strings.Join(w.rows, " "); tag != st.tag || got != st.rows {
			t.Errorf("%s: %s [%s], want %s [%s]", st.sql, tag, got, st.tag, st.rows)
		}
	}
}

// TestCursorMoves holds FETCH and MOVE to PostgreSQL 15's answers for the
// same statements (psql against the oracle).
func TestCursorMoves(t *testing.T) {
	runCursorSteps(t, []cursorStep{
		{"BEGIN", "BEGIN", ""},
		{"DECLARE c SCROLL CURSOR FOR SELECT * FROM generate_series(1,5)", "DECLARE CURSOR", ""},
		{"FETCH 2 c", "FETCH 2", "1 2"},
		{"FETCH PRIOR c", "FETCH 1", "1"},
		{"FETCH PRIOR c", "FETCH 0", ""},
		{"FETCH NEXT c", "FETCH 1", "1"},
		{"FETCH ABSOLUTE 5 c", "FETCH 1", "5"},
		{"FETCH NEXT c", "FETCH 0", ""},
		{"FETCH PRIOR c", "FETCH 1", "5"},
		{"FETCH ABSOLUTE -2 c", "FETCH 1", "4"},
		{"FETCH RELATIVE -2 c", "FETCH 1", "2"},
		{"FETCH RELATIVE 0 c", "FETCH 1", "2"},
		{"MOVE FORWARD ALL c", "MOVE 3", ""},
		{"FETCH BACKWARD 2 c", "FETCH 2", "5 4"},
		{"MOVE BACKWARD ALL c", "MOVE 3", ""},
		{"FETCH ABSOLUTE 0 c", "FETCH 0", ""},
		{"FETCH ABSOLUTE 7 c", "FETCH 0", ""},
		{"FETCH BACKWARD 1 c", "FETCH 1", "5"},
		{"FETCH -1 c", "FETCH 1", "4"},
		{"MOVE 0 c", "MOVE 1", ""},
		{"MOVE ABSOLUTE -1 c", "MOVE 1", ""},
		{"FETCH RELATIVE 1 c", "FETCH 0", ""},
		{"MOVE BACKWARD 10 c", "MOVE 5", ""},
		{"FETCH LAST c", "FETCH 1", "5"},
		{"FETCH FIRST c", "FETCH 1", "1"},
		{"ROLLBACK", "ROLLBACK", ""},
	})
}

// TestCursorNoScroll: a NO SCROLL cursor moves forward (ABSOLUTE ahead
// of it included) and refuses anything backward; the rows it passed are
// released.
func TestCursorNoScroll(t *testing.T) {
	runCursorSteps(t, []cursorStep{
		{"BEGIN", "BEGIN", ""},
		{"DECLARE c NO SCROLL CURSOR FOR SELECT * FROM generate_series(1,5)", "DECLARE CURSOR", ""},
		{"FETCH 2 c", "FETCH 2", "1 2"},
		{"FETCH ABSOLUTE 4 c", "FETCH 1", "4"},
		{"FETCH RELATIVE 0 c", "", "55000"},
		{"ROLLBACK", "ROLLBACK", ""},
		{"BEGIN", "BEGIN", ""},
		{"DECLARE c NO SCROLL CURSOR FOR SELECT * FROM generate_series(1,5)", "DECLARE CURSOR", ""},
		{"FETCH 3 c", "FETCH 3", "1 2 3"},
		{"FETCH ABSOLUTE 2 c", "", "55000"},
		{"ROLLBACK", "ROLLBACK", ""},
	})
}

// TestCursorHold: a WITH HOLD cursor outlives COMMIT with its position,
// a ROLLBACK of a later transaction leaves it, and CLOSE ends it.
func TestCursorHold(t *testing.T) {
	runCursorSteps(t, []cursorStep{
		{"DECLARE h CURSOR WITH HOLD FOR SELECT * FROM generate_series(1,4)", "DECLARE CURSOR", ""},
		{"FETCH h", "FETCH 1", "1"},
		{"BEGIN", "BEGIN", ""},
		{"FETCH h", "FETCH 1", "2"},
		{"ROLLBACK", "ROLLBACK", ""},
		{"FETCH ALL h", "FETCH 2", "3 4"},
		{"CLOSE h", "CLOSE CURSOR", ""},
		{"FETCH h", "", "34000"},
		{"DECLARE n CURSOR FOR SELECT 1", "", "25P01"},
	})
}

// TestCurrentOfChangedRow: after UPDATE ... WHERE CURRENT OF, PostgreSQL
// follows the row to its new version, and finds none once it is deleted
// (the statements then change no row); a FOR UPDATE cursor skips the rows
// the transaction changed after DECLARE and scans forward only (PostgreSQL
// 15's answers through psql).
func TestCurrentOfChangedRow(t *testing.T) {
	// Two updates of a FOR NO KEY UPDATE cursor's row, then a second row.
	updatedTwice := []cursorStep{
		{"BEGIN", "BEGIN", ""},
		{"DECLARE c3 CURSOR FOR SELECT f1 FROM cur_u FOR NO KEY UPDATE", "DECLARE CURSOR", ""},
		{"FETCH c3", "FETCH 1", "1"},
		{"UPDATE cur_u SET f1 = f1 + 10 WHERE CURRENT OF c3", "UPDATE 1", ""},
		{"UPDATE cur_u SET f1 = f1 + 10 WHERE CURRENT OF c3", "UPDATE 1", ""},
		{"FETCH c3", "FETCH 1", "2"},
	}
	steps := []cursorStep{
		{"CREATE TABLE cur_u (f1 int, f2 text)", "CREATE TABLE", ""},
		{"INSERT INTO cur_u VALUES (1, 'one'), (2, 'two')", "INSERT 0 2", ""},
		{"BEGIN", "BEGIN", ""},
		{"DECLARE c1 CURSOR FOR SELECT * FROM cur_u", "DECLARE CURSOR", ""},
		{"FETCH c1", "FETCH 1", "1|one"},
		{"UPDATE cur_u SET f1 = f1 + 10 WHERE CURRENT OF c1", "UPDATE 1", ""},
		{"UPDATE cur_u SET f1 = f1 + 10 WHERE CURRENT OF c1 RETURNING f1", "UPDATE 1", "21"},
		{"FETCH RELATIVE 0 FROM c1", "FETCH 1", "1|one"},
		{"DELETE FROM cur_u WHERE CURRENT OF c1 RETURNING f1", "DELETE 1", "21"},
		{"DELETE FROM cur_u WHERE CURRENT OF c1", "DELETE 0", ""},
		{"UPDATE cur_u SET f1 = f1 + 10 WHERE CURRENT OF c1", "UPDATE 0", ""},
		{"SELECT f1 FROM cur_u", "SELECT 1", "2"},
		{"ROLLBACK", "ROLLBACK", ""},
		{"BEGIN", "BEGIN", ""},
		{"DECLARE c2 CURSOR FOR SELECT f1 FROM cur_u WHERE f1 > 0 FOR UPDATE", "DECLARE CURSOR", ""},
		{"UPDATE cur_u SET f2 = 'changed' WHERE f1 = 1", "UPDATE 1", ""},
		{"FETCH ALL FROM c2", "FETCH 1", "2"},
		{"FETCH RELATIVE 0 FROM c2", "FETCH 0", ""},
		{"ROLLBACK", "ROLLBACK", ""},
	}
	steps = append(steps, updatedTwice...)
	steps = append(steps, cursorStep{"FETCH RELATIVE 0 FROM c3", "", "55000"}, cursorStep{"ROLLBACK", "ROLLBACK", ""})
	steps = append(steps, updatedTwice...)
	steps = append(steps, []cursorStep{
		{"DELETE FROM cur_u WHERE CURRENT OF c3", "DELETE 1", ""},
		{"SELECT f1 FROM cur_u", "SELECT 1", "21"},
		{"ROLLBACK", "ROLLBACK", ""},
		{"BEGIN", "BEGIN", ""},
		{"DECLARE c1 CURSOR FOR SELECT * FROM cur_u", "DECLARE CURSOR", ""},
		{"FETCH 2 c1", "FETCH 2", "1|one 2|two"},
		{"DELETE FROM cur_u WHERE CURRENT OF c1", "DELETE 1", ""},
		{"SELECT f1 FROM cur_u", "SELECT 1", "1"},
		{"ROLLBACK", "ROLLBACK", ""},
	}...)
	runCursorSteps(t, steps)
}
