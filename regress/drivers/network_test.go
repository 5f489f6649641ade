package drivers

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestPgxNetworkTypes sends inet, cidr, macaddr and macaddr8 values (and
// arrays of them) as pgx parameters and reads them back into Go's types,
// in the simple protocol and in extended mode with text and binary
// results (inet_send's layout, macaddr's bytes). The transcripts of
// PostgreSQL 15 and joind must be equal.
func TestPgxNetworkTypes(t *testing.T) {
	sameTranscript(t, "drv_net", "2001:db8::1/64", networkTranscript)
}

func networkTranscript(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	c := connect(t, dsn)
	defer c.Close(ctx)
	execSQL(t, c, `DROP TABLE IF EXISTS drv_net`,
		`CREATE TABLE drv_net (k int, i inet, c cidr, m macaddr, m8 macaddr8, ia inet[])`)
	// pgx sends a net.HardwareAddr of a type it did not describe as bytea:
	// the text form reaches either server intact.
	mac := "08-00-2b-01-02-03"
	rows := []struct {
		i, c string
	}{{"10.1.2.3/8", "10.0.0.0/8"}, {"2001:db8::1/64", "2001:db8::/32"}, {"192.168.1.7/32", "192.168.1.0/24"}}
	var b strings.Builder
	modes := []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec, pgx.QueryExecModeCacheDescribe}
	for mi, mode := range modes {
		for ri, r := range rows {
			k := mi*10 + ri
			p := netip.MustParsePrefix(r.i)
			if _, err := c.Exec(ctx, `INSERT INTO drv_net VALUES ($1, $2, $3, $4, $5::macaddr8, $6)`, mode,
				k, p, netip.MustParsePrefix(r.c), mac, "08:00:2b:01:02:03:04:05", []netip.Prefix{p, netip.MustParsePrefix("::1/128")}); err != nil {
				fmt.Fprintf(&b, "insert %d: %s %v\n", k, pgCode(err), err)
			}
		}
		q, err := c.Query(ctx, `SELECT k, i, c, m, m8::text, ia, host(i), i << c FROM drv_net WHERE k >= $1 AND k < $2 ORDER BY k`,
			mode, mi*10, mi*10+10)
		if err != nil {
			t.Fatalf("select in mode %v: %v", mode, err)
		}
		for q.Next() {
			var (
				k      int32
				i, cid netip.Prefix
				m      net.HardwareAddr
				m8, h  string
				ia     []netip.Prefix
				in     bool
			)
			if err := q.Scan(&k, &i, &cid, &m, &m8, &ia, &h, &in); err != nil {
				t.Fatalf("scan in mode %v: %v", mode, err)
			}
			fmt.Fprintf(&b, "%v %d %s %s %s %s %v %s %v\n", mode, k, i, cid, m, m8, ia, h, in)
		}
		if err := q.Err(); err != nil {
			t.Fatalf("rows in mode %v: %v", mode, err)
		}
	}
	// A host address scans into netip.Addr; a cidr with host bits is refused.
	var a netip.Addr
	if err := c.QueryRow(ctx, `SELECT '::ffff:10.1.2.3'::inet`).Scan(&a); err != nil {
		fmt.Fprintf(&b, "addr: %v\n", err)
	}
	fmt.Fprintf(&b, "addr %s\n", a)
	_, err := c.Exec(ctx, `SELECT $1::cidr`, netip.MustParsePrefix("10.1.2.3/8"))
	fmt.Fprintf(&b, "cidr with host bits: %s\n", pgCode(err))
	return b.String()
}
