package drivers

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/joind/joind/regress/joindtest"
)

// writeTestPKI writes a test CA and a server certificate it signed (for
// localhost and 127.0.0.1) as PEM files; it returns their paths.
func writeTestPKI(t *testing.T) (caFile, certFile, keyFile string) {
	t.Helper()
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "joind test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srv := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, srv, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	write := func(name, typ string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("server.pem", "CERTIFICATE", der), write("server.key", "EC PRIVATE KEY", keyDER)
}

// TestTLSAndSCRAMWithDrivers starts joind with a certificate, users and
// rules that demand TLS and SCRAM, and connects with pgx and psql using
// sslmode=require and verify-full.
func TestTLSAndSCRAMWithDrivers(t *testing.T) {
	caFile, certFile, keyFile := writeTestPKI(t)
	// joindtest's readiness probe connects as postgres; libpq-style
	// PGPASSWORD gives it the password.
	t.Setenv("PGPASSWORD", "startup-pw")
	j := joindtest.StartJoind(t, "--tls-cert", certFile, "--tls-key", keyFile,
		"--users", "postgres:startup-pw,alice:Al1ce pw",
		"--hba", "hostssl all all samehost scram-sha-256; host regression postgres samehost scram-sha-256")
	port := itoa(j.Port())

	ctx := context.Background()
	for _, dsn := range []string{
		"host=127.0.0.1 port=" + port + " dbname=regression user=alice password='Al1ce pw' sslmode=require",
		"host=localhost port=" + port + " dbname=regression user=alice password='Al1ce pw' sslmode=verify-full sslrootcert=" + caFile,
		"host=127.0.0.1 port=" + port + " dbname=regression user=alice password='Al1ce pw' sslmode=verify-full sslrootcert=" + caFile,
	} {
		c, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("pgx %s: %v", dsn, err)
			continue
		}
		if _, ok := c.PgConn().Conn().(*tls.Conn); !ok {
			t.Errorf("pgx %s: connection is not TLS", dsn)
		}
		var user string
		if err := c.QueryRow(ctx, "select current_user").Scan(&user); err != nil || user != "alice" {
			t.Errorf("pgx %s: current_user %q %v", dsn, user, err)
		}
		c.Close(ctx)
	}
	// Without TLS alice matches no rule; a wrong password fails SCRAM.
	for dsn, want := range map[string]string{
		"host=127.0.0.1 port=" + port + " dbname=regression user=alice password='Al1ce pw' sslmode=disable": "28000",
		"host=127.0.0.1 port=" + port + " dbname=regression user=alice password=nope sslmode=require":       "28P01",
	} {
		_, err := pgx.Connect(ctx, dsn)
		if pgCode(err) != want {
			t.Errorf("pgx %s: %v, want %s", dsn, err, want)
		}
	}

	psql := need(t, "psql", "/usr/lib/postgresql/15/bin/psql", "psql")
	for _, mode := range []string{"require", "verify-full"} {
		out := run(t, []string{"PGPASSWORD=Al1ce pw", "PGSSLMODE=" + mode, "PGSSLROOTCERT=" + caFile}, "", psql, "-X", "-At",
			"-h", "localhost", "-p", port, "-U", "alice", "-d", "regression", "-c", "select current_user, 1+1")
		if strings.TrimSpace(out) != "alice|2" {
			t.Errorf("psql sslmode=%s: %q", mode, out)
		}
	}
	if strings.Contains(j.Log(), "Al1ce pw") || strings.Contains(j.Log(), "startup-pw") {
		t.Error("the server log contains a password")
	}
}
