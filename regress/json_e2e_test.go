package regress

import (
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestE2EJSONBinary sends and reads json and jsonb in the extended
// protocol's binary format (jsonb_send/jsonb_recv: the version byte 1, then
// the text; json: the text), as pgx does for these OIDs.
func TestE2EJSONBinary(t *testing.T) {
	ep := startTarget(t, regressDB)
	c := connect(t, ep)
	ctx := ctxT(t)
	mode := pgx.QueryExecModeCacheDescribe
	var jb, js string
	var jbBytes []byte
	err := c.QueryRow(ctx, `SELECT $1::jsonb, $2::json, $1::jsonb`, mode,
		[]byte(`{"b": [1, 2.50], "a": "x"}`), []byte(`{"b":  1}`)).Scan(&jb, &js, &jbBytes)
	if err != nil {
		t.Fatal(err)
	}
	if jb != `{"a": "x", "b": [1, 2.50]}` || js != `{"b":  1}` || string(jbBytes) != jb {
		t.Errorf("jsonb %q, json %q, jsonb bytes %q", jb, js, jbBytes)
	}
	var m map[string]any
	if err := c.QueryRow(ctx, `SELECT jsonb_build_object('k', 1, 'l', 'v')`, mode).Scan(&m); err != nil {
		t.Fatal(err)
	}
	if m["k"] != float64(1) || m["l"] != "v" {
		t.Errorf("decoded jsonb = %v", m)
	}
	if _, err := c.Exec(ctx, `SELECT $1::json`, mode, []byte(`{"a":`)); err == nil {
		t.Errorf("invalid json parameter accepted")
	}
}
