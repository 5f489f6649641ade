package wire

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"github.com/xdg-go/stringprep"
	"net"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/joind/joind/pgerr"
)

// Authentication methods of an HBA rule, as pg_hba.conf spells them.
const (
	AuthTrust    = "trust"
	AuthReject   = "reject"
	AuthPassword = "password" // cleartext
	AuthMD5      = "md5"
	AuthSCRAM    = "scram-sha-256"
)

// HBARule is one line of joind's pg_hba equivalent: connections of Type
// ("host" any, "hostssl" TLS only, "hostnossl" plain only) to one of
// Databases as one of Users from Address use Method. The first matching
// rule decides.
type HBARule struct {
	Type      string
	Databases []string // "all" matches every database
	Users     []string // "all" matches every user
	Address   string   // "all", "samehost" (this machine) or a CIDR
	Method    string
}

// AuthConfig is who may connect and how.
type AuthConfig struct {
	// Users maps user names to passwords: plain text, or a verifier as
	// PostgreSQL stores them ("md5" + md5(password+user), or
	// "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>").
	Users map[string]string
	// Lookup, when set, is the role catalog: a user's stored secret, whether
	// it may log in, whether it exists, and whether the catalog is closed
	// (only its roles may connect). A role it finds takes precedence over
	// Users; a user it does not find falls back to Users unless closed.
	Lookup func(user string) (secret string, login, found, closed bool)
	// Rules are tried in order. With none: a server with users asks every
	// client for a SCRAM-SHA-256 password; a server without users trusts
	// local clients and refuses others.
	Rules []HBARule
}

// rules returns the effective rules.
func (a *AuthConfig) rules() []HBARule {
	if len(a.Rules) > 0 {
		return a.Rules
	}
	if len(a.Users) > 0 {
		return []HBARule{{Type: "host", Databases: []string{"all"}, Users: []string{"all"}, Address: "all", Method: AuthSCRAM}}
	}
	return []HBARule{{Type: "host", Databases: []string{"all"}, Users: []string{"all"}, Address: "samehost", Method: AuthTrust}}
}

// ValidateHBARule checks a rule's fields (for config validation).
func ValidateHBARule(r HBARule) error {
	switch r.Type {
	case "host", "hostssl", "hostnossl":
	default:
		return fmt.Errorf("connection type %q: must be host, hostssl or hostnossl", r.Type)
	}
	switch r.Method {
	case AuthTrust, AuthReject, AuthPassword, AuthMD5, AuthSCRAM:
	default:
		return fmt.Errorf("authentication method %q: must be trust, reject, password, md5 or scram-sha-256", r.Method)
	}
	if r.Address != "all" && r.Address != "samehost" {
		if _, _, err := net.ParseCIDR(r.Address); err != nil {
			if net.ParseIP(r.Address) == nil {
				return fmt.Errorf("address %q: must be all, samehost, an IP address or a CIDR", r.Address)
			}
		}
	}
	if len(r.Databases) == 0 || len(r.Users) == 0 {
		return fmt.Errorf("a rule needs databases and users")
	}
	return nil
}

func listMatches(list []string, v string) bool {
	for _, x := range list {
		if x == "all" || x == v {
			return true
		}
	}
	return false
}

// isLocal reports whether ip is this machine (loopback or one of its
// interface addresses).
func isLocal(ip net.IP) bool {
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

func addressMatches(addr string, ip net.IP) bool {
	switch addr {
	case "all":
		return true
	case "samehost":
		return isLocal(ip)
	}
	if _, n, err := net.ParseCIDR(addr); err == nil {
		return ip != nil && n.Contains(ip)
	}
	return ip != nil && net.ParseIP(addr).Equal(ip)
}

func remoteIP(nc net.Conn) net.IP {
	host, _, err := net.SplitHostPort(nc.RemoteAddr().String())
	if err != nil {
		return nil
	}
	return net.ParseIP(host)
}

// authenticate runs the authentication exchange for user/database and
// returns nil once the client is authenticated (AuthenticationOk is left to
// the caller). A failure is the FATAL error to send.
func (c *conn) authenticate(user, database string) (err *pgerr.Error) {
	ip := remoteIP(c.nc)
	host := "local"
	if ip != nil {
		host = ip.String()
	}
	enc := "no encryption"
	if c.tls {
		enc = "SSL encryption"
	}
	if !c.tls && c.srv.opts.RequireTLSRemote && !isLocal(ip) {
		c.log.Warn("authentication failed: TLS required for remote clients", "user", user, "database", database)
		return pgerr.New(pgerr.InvalidAuthorization, "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s", host, user, database, enc)
	}
	auth := &c.srv.opts.Auth
	var rule *HBARule
	for _, r := range auth.rules() {
		if (r.Type == "hostssl" && !c.tls) || (r.Type == "hostnossl" && c.tls) {
			continue
		}
		if listMatches(r.Databases, database) && listMatches(r.Users, user) && addressMatches(r.Address, ip) {
			rule = &r
			break
		}
	}
	if rule == nil {
		c.log.Warn("authentication failed: no matching rule", "user", user, "database", database)
		return pgerr.New(pgerr.InvalidAuthorization, "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s", host, user, database, enc)
	}
	secret, known := auth.Users[user]
	login := true
	if auth.Lookup != nil {
		s, l, found, closed := auth.Lookup(user)
		switch {
		case found:
			secret, known, login = s, s != "", l
		case closed:
			secret, known, login = "", false, false
		}
		// After authentication, as PostgreSQL's InitializeSessionUserId.
		defer func() {
			if err == nil && !found && closed {
				err = pgerr.New(pgerr.InvalidAuthorization, "role \"%s\" does not exist", user)
			} else if err == nil && !login {
				err = pgerr.New(pgerr.InvalidAuthorization, "role \"%s\" is not permitted to log in", user)
			}
			if err != nil && err.Code == pgerr.InvalidAuthorization {
				c.log.Warn("authentication failed", "user", user, "reason", err.Message)
			}
		}()
	}
	switch rule.Method {
	case AuthTrust:
		return nil
	case AuthReject:
		c.log.Warn("authentication failed: rejected by rule", "user", user, "database", database)
		return pgerr.New(pgerr.InvalidAuthorization, "pg_hba.conf rejects connection for host \"%s\", user \"%s\", database \"%s\", %s", host, user, database, enc)
	}
	method := rule.Method
	if method == AuthMD5 && strings.HasPrefix(secret, "SCRAM-SHA-256$") {
		method = AuthSCRAM // as PostgreSQL: an md5 rule uses SCRAM for a SCRAM verifier
	}
	failed := func(reason string) *pgerr.Error {
		// The log names the reason, never the password or proof.
		c.log.Warn("password authentication failed", "user", user, "method", method, "reason", reason)
		return pgerr.New(pgerr.InvalidPassword, "password authentication failed for user \"%s\"", user)
	}
	var ok bool
	var reason string
	switch method {
	case AuthPassword:
		ok, reason = c.authCleartext(user, secret, known)
	case AuthMD5:
		ok, reason = c.authMD5(user, secret, known)
	case AuthSCRAM:
		ok, reason = c.authSCRAM(user, secret, known)
	}
	if !ok {
		if reason == "" {
			reason = "wrong password"
		}
		return failed(reason)
	}
	return nil
}

// receivePassword reads the client's next authentication message.
func (c *conn) receivePassword(authType uint32) (pgproto3.FrontendMessage, error) {
	c.flush()
	if c.writeErr != nil {
		return nil, c.writeErr
	}
	if err := c.be.SetAuthType(authType); err != nil {
		return nil, err
	}
	return c.be.Receive()
}

func (c *conn) authCleartext(user, secret string, known bool) (bool, string) {
	c.be.Send(&pgproto3.AuthenticationCleartextPassword{})
	msg, err := c.receivePassword(pgproto3.AuthTypeCleartextPassword)
	if err != nil {
		return false, "no password received"
	}
	pm, isPM := msg.(*pgproto3.PasswordMessage)
	if !isPM {
		return false, "unexpected message"
	}
	if !known {
		return false, "no such user"
	}
	return passwordMatches(user, secret, pm.Password), ""
}

// passwordMatches checks a cleartext password against a stored secret.
func passwordMatches(user, secret, pw string) bool {
	switch {
	case strings.HasPrefix(secret, "SCRAM-SHA-256$"):
		v, err := parseSCRAMVerifier(secret)
		if err != nil {
			return false
		}
		_, storedKey, _ := scramKeys(pw, v.salt, v.iter)
		return subtle.ConstantTimeCompare(storedKey, v.storedKey) == 1
	case isMD5Secret(secret):
		return subtle.ConstantTimeCompare([]byte(md5Secret(user, pw)), []byte(secret)) == 1
	}
	return subtle.ConstantTimeCompare([]byte(pw), []byte(secret)) == 1
}

func isMD5Secret(s string) bool {
	if len(s) != 35 || !strings.HasPrefix(s, "md5") {
		return false
	}
	_, err := hex.DecodeString(s[3:])
	return err == nil
}

// md5Secret is PostgreSQL's stored md5 password: "md5" + md5(password + user).
func md5Secret(user, pw string) string {
	sum := md5.Sum([]byte(pw + user))
	return "md5" + hex.EncodeToString(sum[:])
}

func (c *conn) authMD5(user, secret string, known bool) (bool, string) {
	var salt [4]byte
	_, _ = rand.Read(salt[:])
	c.be.Send(&pgproto3.AuthenticationMD5Password{Salt: salt})
	msg, err := c.receivePassword(pgproto3.AuthTypeMD5Password)
	if err != nil {
		return false, "no password received"
	}
	pm, isPM := msg.(*pgproto3.PasswordMessage)
	if !isPM {
		return false, "unexpected message"
	}
	if !known {
		return false, "no such user"
	}
	stored := secret
	if !isMD5Secret(stored) {
		stored = md5Secret(user, secret)
	}
	sum := md5.Sum(append([]byte(stored[3:]), salt[:]...))
	want := "md5" + hex.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(want), []byte(pm.Password)) == 1, ""
}

// scramVerifier is a SCRAM-SHA-256 secret.
type scramVerifier struct {
	iter                 int
	salt                 []byte
	storedKey, serverKey []byte
}

func parseSCRAMVerifier(s string) (*scramVerifier, error) {
	bad := fmt.Errorf("invalid SCRAM-SHA-256 verifier")
	rest, ok := strings.CutPrefix(s, "SCRAM-SHA-256$")
	if !ok {
		return nil, bad
	}
	params, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return nil, bad
	}
	iterS, saltS, ok1 := strings.Cut(params, ":")
	stS, svS, ok2 := strings.Cut(keys, ":")
	if !ok1 || !ok2 {
		return nil, bad
	}
	v := &scramVerifier{}
	var err error
	if v.iter, err = strconv.Atoi(iterS); err != nil || v.iter < 1 {
		return nil, bad
	}
	if v.salt, err = base64.StdEncoding.DecodeString(saltS); err != nil {
		return nil, bad
	}
	if v.storedKey, err = base64.StdEncoding.DecodeString(stS); err != nil || len(v.storedKey) != sha256.Size {
		return nil, bad
	}
	if v.serverKey, err = base64.StdEncoding.DecodeString(svS); err != nil || len(v.serverKey) != sha256.Size {
		return nil, bad
	}
	return v, nil
}

func hmacSHA256(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

// saslPrep normalizes a password as PostgreSQL does before SCRAM (RFC 4013
// SASLprep); like PostgreSQL, a password that is not valid under SASLprep
// is used as its raw bytes.
func saslPrep(pw string) string {
	if p, err := stringprep.SASLprep.Prepare(pw); err == nil {
		return p
	}
	return pw
}

// scramKeys derives ClientKey, StoredKey and ServerKey from a password.
func scramKeys(pw string, salt []byte, iter int) (clientKey, storedKey, serverKey []byte) {
	salted, err := pbkdf2.Key(sha256.New, saslPrep(pw), salt, iter, sha256.Size)
	if err != nil {
		return nil, nil, nil
	}
	clientKey = hmacSHA256(salted, "Client Key")
	sk := sha256.Sum256(clientKey)
	return clientKey, sk[:], hmacSHA256(salted, "Server Key")
}

// SCRAMVerifier makes the SCRAM-SHA-256 secret of a password, as
// PostgreSQL stores it (4096 iterations, random 16-byte salt).
func SCRAMVerifier(pw string) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	return scramVerifierWithSalt(pw, salt)
}

func scramVerifierWithSalt(pw string, salt []byte) string {
	_, stored, server := scramKeys(pw, salt, 4096)
	return fmt.Sprintf("SCRAM-SHA-256$4096:%s$%s:%s", base64.StdEncoding.EncodeToString(salt),
		base64.StdEncoding.EncodeToString(stored), base64.StdEncoding.EncodeToString(server))
}

// mockSalt is the salt SCRAM shows for user when the server holds no
// verifier with a salt of its own: an unknown user, or a plain-text password
// from the config. It is a keyed hash of the name, so repeated attempts see
// the same salt whether or not the user exists (PostgreSQL's
// scram_mock_salt does the same with the cluster's mock nonce).
func (s *Server) mockSalt(user string) []byte {
	return hmacSHA256(s.mockKey[:], "scram salt\x00"+user)[:16]
}

// verifierFor returns the SCRAM verifier of a stored secret, derived once
// per user and cached (PBKDF2 is deliberately slow).
func (s *Server) verifierFor(user, secret string) (*scramVerifier, error) {
	if strings.HasPrefix(secret, "SCRAM-SHA-256$") {
		return parseSCRAMVerifier(secret)
	}
	if isMD5Secret(secret) {
		return nil, fmt.Errorf("md5 secret cannot be used for SCRAM")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := user + "\x00" + secret
	if v, ok := s.scramCache[key]; ok {
		return v, nil
	}
	v, err := parseSCRAMVerifier(scramVerifierWithSalt(secret, s.mockSalt(user)))
	if err != nil {
		return nil, err
	}
	if s.scramCache == nil {
		s.scramCache = map[string]*scramVerifier{}
	}
	s.scramCache[key] = v
	return v, nil
}

// authSCRAM runs SCRAM-SHA-256 (RFC 5802, RFC 7677) without channel
// binding. An unknown user goes through the whole exchange with a made-up
// verifier, so the answer does not reveal which users exist.
func (c *conn) authSCRAM(user, secret string, known bool) (bool, string) {
	c.be.Send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
	msg, err := c.receivePassword(pgproto3.AuthTypeSASL)
	if err != nil {
		return false, "no SASL response"
	}
	init, isInit := msg.(*pgproto3.SASLInitialResponse)
	if !isInit || init.AuthMechanism != "SCRAM-SHA-256" {
		return false, "client did not choose SCRAM-SHA-256"
	}
	// client-first-message: gs2-header "n,," or "y,," then n=user,r=nonce.
	cfm := string(init.Data)
	var gs2 string
	switch {
	case strings.HasPrefix(cfm, "n,,"), strings.HasPrefix(cfm, "y,,"):
		gs2 = cfm[:3]
	default:
		return false, "unsupported SCRAM channel binding"
	}
	// client-first-message-bare: [m=ext,] n=saslname, r=nonce [,ext...].
	// PostgreSQL takes the user from the startup packet (n= is usually
	// empty) and refuses mandatory extensions.
	bare := cfm[len(gs2):]
	attrs := strings.Split(bare, ",")
	if strings.HasPrefix(attrs[0], "m=") {
		return false, "client requires an unsupported SCRAM extension"
	}
	if len(attrs) < 2 || !strings.HasPrefix(attrs[0], "n=") || !strings.HasPrefix(attrs[1], "r=") || len(attrs[1]) == 2 {
		return false, "malformed SCRAM client-first-message"
	}
	cnonce := attrs[1][2:]
	for _, ch := range cnonce {
		if ch < 0x21 || ch > 0x7e || ch == ',' {
			return false, "malformed SCRAM nonce"
		}
	}
	var v *scramVerifier
	if known {
		if v, err = c.srv.verifierFor(user, secret); err != nil {
			known = false
		}
	}
	if !known {
		// A made-up verifier with the user's stable mock salt; its keys
		// are random, so no proof matches.
		v = &scramVerifier{iter: 4096, salt: c.srv.mockSalt(user), storedKey: make([]byte, sha256.Size), serverKey: make([]byte, sha256.Size)}
		_, _ = rand.Read(v.storedKey)
	}
	nb := make([]byte, 18)
	_, _ = rand.Read(nb)
	nonce := cnonce + base64.StdEncoding.EncodeToString(nb)
	sfm := fmt.Sprintf("r=%s,s=%s,i=%d", nonce, base64.StdEncoding.EncodeToString(v.salt), v.iter)
	c.be.Send(&pgproto3.AuthenticationSASLContinue{Data: []byte(sfm)})
	msg, err = c.receivePassword(pgproto3.AuthTypeSASLContinue)
	if err != nil {
		return false, "no SASL response"
	}
	resp, isResp := msg.(*pgproto3.SASLResponse)
	if !isResp {
		return false, "unexpected message"
	}
	// client-final-message: c=base64(gs2),r=nonce,p=proof (proof last).
	final := string(resp.Data)
	i := strings.LastIndex(final, ",p=")
	if i < 0 {
		return false, "malformed SCRAM client-final-message"
	}
	withoutProof, proofB64 := final[:i], final[i+3:]
	var gotC, gotR string
	for _, attr := range strings.Split(withoutProof, ",") {
		if x, ok := strings.CutPrefix(attr, "c="); ok {
			gotC = x
		}
		if x, ok := strings.CutPrefix(attr, "r="); ok {
			gotR = x
		}
	}
	if gotC != base64.StdEncoding.EncodeToString([]byte(gs2)) || gotR != nonce {
		return false, "SCRAM nonce or channel binding mismatch"
	}
	proof, err := base64.StdEncoding.DecodeString(proofB64)
	if err != nil || len(proof) != sha256.Size {
		return false, "malformed SCRAM proof"
	}
	authMsg := bare + "," + sfm + "," + withoutProof
	sig := hmacSHA256(v.storedKey, authMsg)
	clientKey := make([]byte, sha256.Size)
	for k := range clientKey {
		clientKey[k] = proof[k] ^ sig[k]
	}
	sum := sha256.Sum256(clientKey)
	if subtle.ConstantTimeCompare(sum[:], v.storedKey) != 1 || !known {
		if !known {
			return false, "no such user"
		}
		return false, ""
	}
	serverSig := hmacSHA256(v.serverKey, authMsg)
	c.be.Send(&pgproto3.AuthenticationSASLFinal{Data: []byte("v=" + base64.StdEncoding.EncodeToString(serverSig))})
	return true, ""
}
