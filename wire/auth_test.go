package wire

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// remoteListener makes every client look as if it came from another
// machine, so rules for remote clients can be tested on loopback.
type remoteListener struct{ net.Listener }

type remoteConn struct{ net.Conn }

func (remoteConn) RemoteAddr() net.Addr {
	return &net.TCPAddr{IP: net.ParseIP("203.0.113.5"), Port: 40000}
}

func (l remoteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return remoteConn{c}, nil
}

func startAuthServer(t *testing.T, opts ServerOptions, remote bool) *testServer {
	t.Helper()
	ts := startTestServer(t, opts)
	if remote {
		// A second listener whose clients look remote.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go ts.srv.Serve(context.Background(), remoteListener{ln})
		ts.addr = ln.Addr().String()
	}
	return ts
}

func tryConnect(t *testing.T, addr, user, password, extra string) error {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	dsn := "host=" + host + " port=" + port + " user=" + user + " dbname=d connect_timeout=5 " + extra
	if password != "" {
		dsn += " password=" + password
	}
	if !strings.Contains(extra, "sslmode") {
		dsn += " sslmode=disable"
	}
	c, err := pgconn.Connect(context.Background(), dsn)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	_, err = c.Exec(context.Background(), "select 1").ReadAll()
	return err
}

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code + " " + pe.Message
	}
	if err == nil {
		return "ok"
	}
	return err.Error()
}

func TestAuthDefaultsTrustLocalOnly(t *testing.T) {
	local := startAuthServer(t, ServerOptions{}, false)
	if err := tryConnect(t, local.addr, "anyone", "", ""); err != nil {
		t.Errorf("local client without users: %v", err)
	}
	remote := startAuthServer(t, ServerOptions{}, true)
	got := sqlState(tryConnect(t, remote.addr, "anyone", "", ""))
	want := `28000 no pg_hba.conf entry for host "203.0.113.5", user "anyone", database "d", no encryption`
	if got != want {
		t.Errorf("remote client without users:\n got  %s\n want %s", got, want)
	}
}

func TestAuthMethods(t *testing.T) {
	opts := ServerOptions{Auth: AuthConfig{
		Users: map[string]string{
			"alice": "al1ce-secret",                 // plain text: SCRAM by default
			"bob":   md5Secret("bob", "b0b-secret"), // md5 verifier
			"carol": SCRAMVerifier("car0l-secret"),  // SCRAM verifier
			"dave":  "dav3-secret",                  // cleartext rule
			"erin":  SCRAMVerifier("er1n-secret"),   // md5 rule, SCRAM secret: SCRAM is used
		},
		Rules: []HBARule{
			{Type: "host", Databases: []string{"nodb"}, Users: []string{"all"}, Address: "all", Method: AuthReject},
			{Type: "host", Databases: []string{"all"}, Users: []string{"alice", "carol"}, Address: "samehost", Method: AuthSCRAM},
			{Type: "host", Databases: []string{"all"}, Users: []string{"bob", "erin"}, Address: "127.0.0.0/8", Method: AuthMD5},
			{Type: "host", Databases: []string{"all"}, Users: []string{"dave"}, Address: "all", Method: AuthPassword},
			{Type: "host", Databases: []string{"all"}, Users: []string{"trusty"}, Address: "all", Method: AuthTrust},
		},
	}}
	ts := startAuthServer(t, opts, false)
	for _, c := range []struct{ user, pw, extra, want string }{
		{"alice", "al1ce-secret", "", "ok"},
		{"alice", "wr0ng-pw", "", `28P01 password authentication failed for user "alice"`},
		{"alice", "", "", "no password"},
		{"bob", "b0b-secret", "", "ok"},
		{"bob", "b0b-Secret", "", `28P01 password authentication failed for user "bob"`},
		{"carol", "car0l-secret", "", "ok"},
		{"carol", "al1ce-secret", "", `28P01 password authentication failed for user "carol"`},
		{"dave", "dav3-secret", "", "ok"},
		{"dave", "x", "", `28P01 password authentication failed for user "dave"`},
		{"erin", "er1n-secret", "", "ok"},
		{"trusty", "", "", "ok"},
		{"mallory", "whatever", "", `28000 no pg_hba.conf entry for host "127.0.0.1", user "mallory", database "d", no encryption`},
		{"alice", "al1ce-secret", "dbname=nodb", `28000 pg_hba.conf rejects connection for host "127.0.0.1", user "alice", database "nodb", no encryption`},
	} {
		got := sqlState(tryConnect(t, ts.addr, c.user, c.pw, c.extra))
		if c.want == "no password" {
			if got == "ok" {
				t.Errorf("%s without a password was accepted", c.user)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%s/%s %s:\n got  %s\n want %s", c.user, c.pw, c.extra, got, c.want)
		}
	}
	logs := ts.logs.String()
	for _, secret := range []string{"al1ce-secret", "b0b-secret", "car0l-secret", "dav3-secret", "er1n-secret", "wr0ng-pw", "whatever"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log contains the secret %q", secret)
		}
	}
	if !strings.Contains(logs, "password authentication failed") {
		t.Errorf("failures are not logged:\n%s", logs)
	}
}

func TestAuthUsersDefaultToSCRAM(t *testing.T) {
	ts := startAuthServer(t, ServerOptions{Auth: AuthConfig{Users: map[string]string{"u": "pw"}}}, false)
	if got := sqlState(tryConnect(t, ts.addr, "u", "pw", "")); got != "ok" {
		t.Errorf("u/pw: %s", got)
	}
	if got := sqlState(tryConnect(t, ts.addr, "u", "bad", "")); !strings.HasPrefix(got, "28P01") {
		t.Errorf("u/bad: %s", got)
	}
	// An unknown user goes through SCRAM too and fails the same way.
	if got := sqlState(tryConnect(t, ts.addr, "nobody", "pw", "")); got != `28P01 password authentication failed for user "nobody"` {
		t.Errorf("unknown user: %s", got)
	}
}

// testCert makes a self-signed certificate for 127.0.0.1 and localhost.
func testCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

func TestTLSRequiredForRemoteClients(t *testing.T) {
	cert, _ := testCert(t)
	opts := ServerOptions{TLS: &tls.Config{Certificates: []tls.Certificate{cert}}, RequireTLSRemote: true}
	remote := startAuthServer(t, opts, true)
	got := sqlState(tryConnect(t, remote.addr, "u", "", ""))
	if !strings.HasPrefix(got, `28000 no pg_hba.conf entry for host "203.0.113.5"`) {
		t.Errorf("remote without TLS: %s", got)
	}
	// With TLS the remote client gets to the rules; without users, remote
	// clients have none, so it is refused — naming the encryption.
	got = sqlState(tryConnect(t, remote.addr, "u", "", "sslmode=require"))
	want := `28000 no pg_hba.conf entry for host "203.0.113.5", user "u", database "d", SSL encryption`
	if got != want {
		t.Errorf("remote with TLS:\n got  %s\n want %s", got, want)
	}
	opts.Auth = AuthConfig{Users: map[string]string{"u": "pw"}, Rules: []HBARule{
		{Type: "hostssl", Databases: []string{"all"}, Users: []string{"all"}, Address: "all", Method: AuthSCRAM},
	}}
	remote = startAuthServer(t, opts, true)
	if got := sqlState(tryConnect(t, remote.addr, "u", "pw", "sslmode=require")); got != "ok" {
		t.Errorf("hostssl over TLS: %s", got)
	}
	if got := sqlState(tryConnect(t, remote.addr, "u", "pw", "sslmode=disable")); !strings.HasPrefix(got, "28000") {
		t.Errorf("hostssl without TLS: %s", got)
	}
	local := startAuthServer(t, ServerOptions{TLS: opts.TLS, RequireTLSRemote: true}, false)
	if got := sqlState(tryConnect(t, local.addr, "u", "", "sslmode=disable")); got != "ok" {
		t.Errorf("local client without TLS: %s", got)
	}
	if got := sqlState(tryConnect(t, local.addr, "u", "", "sslmode=require")); got != "ok" {
		t.Errorf("local client with TLS: %s", got)
	}
}

// scramFirstStep connects as user, sends a SCRAM client-first-message with
// the given bare part and returns the server's reply: the server-first
// message's salt, or the error it answered with.
func scramFirstStep(t *testing.T, addr, user, bare string) (salt string, errMsg string) {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": user, "database": "d"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	if msg, err := fe.Receive(); err != nil {
		t.Fatal(err)
	} else if _, ok := msg.(*pgproto3.AuthenticationSASL); !ok {
		t.Fatalf("want AuthenticationSASL, got %T", msg)
	}
	fe.Send(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("n,," + bare)})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	msg, err := fe.Receive()
	if err != nil {
		t.Fatal(err)
	}
	switch m := msg.(type) {
	case *pgproto3.AuthenticationSASLContinue:
		for _, attr := range strings.Split(string(m.Data), ",") {
			if s, ok := strings.CutPrefix(attr, "s="); ok {
				return s, ""
			}
		}
		t.Fatalf("server-first-message without a salt: %q", m.Data)
	case *pgproto3.ErrorResponse:
		return "", m.Code + " " + m.Message
	}
	t.Fatalf("unexpected %T", msg)
	return "", ""
}

// TestSCRAMDoesNotRevealWhichUsersExist: an unknown user sees a salt that
// is as stable across attempts as a known user's, and different per name.
func TestSCRAMDoesNotRevealWhichUsersExist(t *testing.T) {
	ts := startAuthServer(t, ServerOptions{Auth: AuthConfig{Users: map[string]string{"u": "pw", "v": SCRAMVerifier("pw")}}}, false)
	for _, user := range []string{"u", "v", "nobody", "nobody2"} {
		a, errA := scramFirstStep(t, ts.addr, user, "n=,r=abcdef")
		b, errB := scramFirstStep(t, ts.addr, user, "n=,r=ghijkl")
		if errA != "" || errB != "" {
			t.Fatalf("%s: %s %s", user, errA, errB)
		}
		if a != b {
			t.Errorf("%s: salt changed between attempts (%s, %s)", user, a, b)
		}
	}
	x, _ := scramFirstStep(t, ts.addr, "nobody", "n=,r=abcdef")
	y, _ := scramFirstStep(t, ts.addr, "nobody2", "n=,r=abcdef")
	if x == y {
		t.Errorf("two unknown users share the salt %s", x)
	}
}

// TestSCRAMClientFirstMessage: attributes are checked as RFC 5802 and
// PostgreSQL require (n= then r=; mandatory extensions refused).
func TestSCRAMClientFirstMessage(t *testing.T) {
	ts := startAuthServer(t, ServerOptions{Auth: AuthConfig{Users: map[string]string{"u": "pw"}}}, false)
	want := `28P01 password authentication failed for user "u"`
	for _, bare := range []string{"m=ext,n=,r=abc", "r=abc,n=", "n=,r=", "n=", "x=1,r=abc", "n=,r=a b"} {
		if _, got := scramFirstStep(t, ts.addr, "u", bare); got != want {
			t.Errorf("client-first-message-bare %q: got %q, want %q", bare, got, want)
		}
	}
	if _, got := scramFirstStep(t, ts.addr, "u", "n=,r=abc,x=ext"); got != "" {
		t.Errorf("an optional extension after r= is allowed: got %q", got)
	}
}

// TestSCRAMSASLprep: the stored password and the client's are compared
// after SASLprep (RFC 4013), as PostgreSQL does: "Ⅸ" normalizes to "IX".
func TestSCRAMSASLprep(t *testing.T) {
	ts := startAuthServer(t, ServerOptions{Auth: AuthConfig{Users: map[string]string{"u": "\u2168", "w": SCRAMVerifier("IX")}}}, false)
	if !passwordMatches("u", SCRAMVerifier("\u2168"), "IX") || !passwordMatches("u", SCRAMVerifier("IX"), "\u2168") {
		t.Error("SCRAM verifiers of Ⅸ and IX differ after SASLprep")
	}
	// Through a real client: pgx sends the password as given; the server's
	// verifier for "Ⅸ" is the one for "IX".
	if got := sqlState(tryConnect(t, ts.addr, "u", "IX", "")); got != "ok" {
		t.Errorf(`u/"IX": %s`, got)
	}
	// psql (libpq) applies SASLprep on its side too.
	host, port, _ := net.SplitHostPort(ts.addr)
	cmd := exec.Command("/usr/lib/postgresql/15/bin/psql", "-X", "-h", host, "-p", port, "-U", "w", "-d", "d", "-c", "select 1")
	cmd.Env = append(os.Environ(), "PGPASSWORD=\u2168", "PGSSLMODE=disable")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("psql as w with password Ⅸ: %v\n%s", err, out)
	}
}
