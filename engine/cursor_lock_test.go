package engine

import (
	"context"
	"testing"
	"time"

	"github.com/joind/joind/pgerr"
)

// TestForUpdateCursorBlocksWriters: a row a FOR UPDATE cursor has read
// is locked until its transaction ends, so another session's UPDATE of it
// waits (PostgreSQL's row lock); a row the cursor has not reached yet is
// not locked. Under READ COMMITTED a row another session changed after
// DECLARE is refused (0A000) where PostgreSQL would lock its new version.
func TestForUpdateCursorBlocksWriters(t *testing.T) {
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	open := func() *session {
		ws, err := e.NewSession(context.Background(), map[string]string{"user": "cur"})
		if err != nil {
			t.Fatal(err)
		}
		return ws.(*session)
	}
	a, b := open(), open()
	defer a.Close()
	defer b.Close()
	exec := func(s *session, q string) (string, error) {
		sts, err := s.Parse(q)
		if err != nil {
			return "", err
		}
		return s.Execute(context.Background(), sts[0], &rowsWriter{})
	}
	must := func(s *session, q, want string) {
		t.Helper()
		if tag, err := exec(s, q); err != nil || tag != want {
			t.Fatalf("%s: %q %v, want %q", q, tag, err, want)
		}
	}
	must(a, "CREATE TABLE fu (k int, v int)", "CREATE TABLE")
	must(a, "INSERT INTO fu VALUES (1, 0), (2, 0), (3, 0)", "INSERT 0 3")
	must(a, "BEGIN", "BEGIN")
	must(a, "DECLARE c CURSOR FOR SELECT k FROM fu FOR UPDATE", "DECLARE CURSOR")
	must(a, "FETCH 1 FROM c", "FETCH 1")
	// Row 3 is not read yet: b updates it at once.
	must(b, "UPDATE fu SET v = 1 WHERE k = 3", "UPDATE 1")
	done := make(chan error, 1)
	go func() {
		_, err := exec(b, "UPDATE fu SET v = 2 WHERE k = 1")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the UPDATE of a locked row did not wait: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	must(a, "FETCH 1 FROM c", "FETCH 1")
	// Row 3 changed after DECLARE (b committed): refused under READ COMMITTED.
	if _, err := exec(a, "FETCH 1 FROM c"); pgerr.Code(err) != pgerr.FeatureNotSupported {
		t.Fatalf("FETCH of a row changed since DECLARE: %v, want 0A000", err)
	}
	must(a, "ROLLBACK", "ROLLBACK")
	if err := <-done; err != nil {
		t.Fatalf("the waiting UPDATE after the locker ended: %v", err)
	}
}
