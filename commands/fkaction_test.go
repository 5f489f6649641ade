package commands

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/storage"
)

// rowsByID reads rows back by the RowIDs liveRows gives, and a CASCADE
// foreign key deletes the child rows holding a deleted parent key.
func TestCascadeDelete(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newFake(t)
	pk := storage.Constraint{Name: "p_pkey", Kind: storage.ConPrimary, Cols: []string{"a"}}
	fk := storage.Constraint{Name: "c_a_fkey", Kind: storage.ConForeign, Cols: []string{"a"}, RefTable: "p", RefCols: []string{"a"},
		OnDelete: storage.FKCascade, OnUpdate: storage.FKNoAction, Match: 's'}
	if _, err := run(t, s, &sql.CreateTable{Name: "p", Columns: intCol, Constraints: []storage.Constraint{pk}}); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, s, &sql.CreateTable{Name: "c", Columns: intCol, Constraints: []storage.Constraint{fk}}); err != nil {
		t.Fatal(err)
	}
	p, _ := s.cat.Lookup("p")
	c, _ := s.cat.Lookup("c")
	if _, err := AddRows(ctx, s, p, []arrow.Record{record(t, 1), record(t, 2)}); err != nil {
		t.Fatal(err)
	}
	if _, err := AddRows(ctx, s, c, []arrow.Record{record(t, 1), record(t, 2), record(t, 1)}); err != nil {
		t.Fatal(err)
	}
	var ids []storage.RowID
	var keys []int32
	if err := liveRows(p, func(r arrow.Record, row int, id storage.RowID) {
		ids = append(ids, id)
		keys = append(keys, int32(intAt(r, row)))
	}); err != nil {
		t.Fatal(err)
	}
	old, err := rowsByID(p, ids[:1])
	if err != nil || len(old) != 1 || intAt(old[0], 0) != int64(keys[0]) {
		t.Fatalf("rowsByID: %v %v", old, err)
	}
	if err := s.cat.Delete(ctx, p, ids[:1]); err != nil {
		t.Fatal(err)
	}
	if err := CheckReferenced(ctx, s, p, old, nil); err != nil {
		t.Fatal(err)
	}
	left := 0
	if err := liveRows(c, func(r arrow.Record, row int, _ storage.RowID) {
		if intAt(r, row) == int64(keys[0]) {
			t.Errorf("child row with deleted key %d kept", keys[0])
		}
		left++
	}); err != nil {
		t.Fatal(err)
	}
	if want := 3 - countKey(keys[0], 1, 2, 1); left != want {
		t.Fatalf("%d child rows left, want %d", left, want)
	}
}

// An UPDATE's new key that a row later in RowID order still holds is a
// duplicate (PostgreSQL checks each row at once); earlier rows' keys are free.
func TestUpdatedUniqueOrder(t *testing.T) {
	s, _, _ := newFake(t)
	pk := storage.Constraint{Name: "u_pkey", Kind: storage.ConPrimary, Cols: []string{"a"}}
	if _, err := run(t, s, &sql.CreateTable{Name: "u", Columns: intCol, Constraints: []storage.Constraint{pk}}); err != nil {
		t.Fatal(err)
	}
	u, _ := s.cat.Lookup("u")
	old := []arrow.Record{record(t, 1), record(t, 2)}
	// 1→2 first while 2 is not yet updated: 23505.
	err := checkUpdatedUnique(s, u, []arrow.Record{record(t, 2), record(t, 3)}, old, []storage.RowID{1, 2})
	if e := pgerr.As(err); e == nil || e.Code != "23505" || e.Detail != "Key (a)=(2) already exists." {
		t.Fatalf("got %v", err)
	}
	// 2→3 first, then 1→2: fine.
	if err := checkUpdatedUnique(s, u, []arrow.Record{record(t, 2), record(t, 3)}, old, []storage.RowID{2, 1}); err != nil {
		t.Fatal(err)
	}
}

func intAt(r arrow.Record, row int) int64 {
	type int32s interface{ Value(int) int32 }
	return int64(r.Column(0).(int32s).Value(row))
}

func countKey(k int32, vals ...int32) int {
	n := 0
	for _, v := range vals {
		if v == k {
			n++
		}
	}
	return n
}
