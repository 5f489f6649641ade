package regress

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestE2ESearchCycleBinary reads SEARCH's record and CYCLE's record[]
// through pgx's extended protocol, which asks for record in binary (the
// only format pgx decodes it in): record_send's form decoded by pgx, and
// array_send's checked by its layout. JOIND_REGRESS_TARGET=postgres runs
// the same checks on PostgreSQL.
func TestE2ESearchCycleBinary(t *testing.T) {
	ep := startTarget(t, regressDB)
	cfg, err := pgx.ParseConfig(ep.dsn)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pgx.ConnectConfig(ctxT(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctxT(t))
	rows, err := c.Query(ctxT(t), `WITH RECURSIVE s(n, lab) AS (SELECT 1, 'a'::text UNION ALL SELECT n + 1, CASE WHEN n = 1 THEN NULL ELSE 'b' END FROM s WHERE n < 3)
		SEARCH BREADTH FIRST BY n, lab SET seq CYCLE n SET c USING p
		SELECT n, seq, p FROM s ORDER BY seq`, pgx.QueryResultFormats{pgx.BinaryFormatCode})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var n int32
		var depth int64
		var sn int32
		var lab pgtype.Text
		seq := pgtype.CompositeFields{&depth, &sn, &lab}
		if err := rows.Scan(&n, seq, nil); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %d %d %s %v %v", n, depth, sn, lab.String, lab.Valid, pathText(t, rows.RawValues()[2])))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{"1 0 1 a true [1]", "2 1 2  false [1 2]", "3 2 3 b true [1 2 3]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// pathText checks b is array_send's form of a one-dimensional record[]
// without NULLs whose records have one int4 field, and lists the fields.
func pathText(t *testing.T, b []byte) []int32 {
	t.Helper()
	u32 := func() uint32 {
		if len(b) < 4 {
			t.Fatalf("array truncated")
		}
		v := binary.BigEndian.Uint32(b)
		b = b[4:]
		return v
	}
	if nd, flags, elem := u32(), u32(), u32(); nd != 1 || flags != 0 || elem != pgtype.RecordOID {
		t.Fatalf("array header %d %d %d", nd, flags, elem)
	}
	n, lower := u32(), u32()
	if lower != 1 {
		t.Fatalf("lower bound %d", lower)
	}
	var out []int32
	for i := uint32(0); i < n; i++ {
		if l, fields, oid, fl := u32(), u32(), u32(), u32(); l != 16 || fields != 1 || oid != pgtype.Int4OID || fl != 4 {
			t.Fatalf("element %d: %d %d %d %d", i, l, fields, oid, fl)
		}
		out = append(out, int32(u32()))
	}
	if len(b) != 0 {
		t.Fatalf("%d bytes after the array", len(b))
	}
	return out
}
