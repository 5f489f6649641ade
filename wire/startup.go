package wire

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/joind/joind/pgerr"
)

// Request codes of the untyped packets a client may send before (or instead
// of) its StartupMessage. They live in the protocol-version field, with a
// major version of 1234 that no real protocol uses.
const (
	cancelRequestCode = 1234<<16 | 5678 // 80877102
	sslRequestCode    = 1234<<16 | 5679 // 80877103
	gssEncRequestCode = 1234<<16 | 5680 // 80877104

	protocolMajor3  = 3
	protocolLatest  = 3 << 16 // 3.0: what NegotiateProtocolVersion announces, as PostgreSQL 15 does
	maxStartupLen   = 10000   // MAX_STARTUP_PACKET_LENGTH of PostgreSQL
	minStartupLen   = 8       // length word + request code
	pqOptionPrefix  = "_pq_."
	maxNegotiations = 4 // SSLRequest/GSSENCRequest answered before giving up
)

// startupPacket is one untyped packet of the startup phase.
type startupPacket struct {
	code uint32 // protocol version or request code
	body []byte // everything after the code
}

// errBadStartup marks a startup packet that is not worth an answer (wrong
// length): PostgreSQL logs it and closes without writing.
type errBadStartup struct{ msg string }

func (e *errBadStartup) Error() string { return e.msg }

// readStartupPacket reads exactly one length-prefixed packet. It reads no
// byte past the packet, so the connection can be handed to a pgproto3.Backend
// (or a TLS layer, later) afterwards without losing data.
func readStartupPacket(r io.Reader) (startupPacket, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return startupPacket{}, err
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[:])))
	if n < minStartupLen || n > maxStartupLen {
		return startupPacket{}, &errBadStartup{fmt.Sprintf("invalid length of startup packet: %d", n)}
	}
	buf := make([]byte, n-4)
	if _, err := io.ReadFull(r, buf); err != nil {
		return startupPacket{}, err
	}
	return startupPacket{code: binary.BigEndian.Uint32(buf[:4]), body: buf[4:]}, nil
}

// parseStartupParams decodes the name/value pairs of a StartupMessage body:
// NUL-terminated strings, alternately names and values, ending in one more NUL.
func parseStartupParams(body []byte) (map[string]string, error) {
	layoutErr := pgerr.New(pgerr.ProtocolViolation, "invalid startup packet layout: expected terminator as last byte")
	if len(body) == 0 || body[len(body)-1] != 0 {
		return nil, layoutErr
	}
	params := make(map[string]string)
	rest := body[:len(body)-1]
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return nil, layoutErr
		}
		name := string(rest[:i])
		rest = rest[i+1:]
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			return nil, layoutErr
		}
		params[name] = string(rest[:j])
		rest = rest[j+1:]
	}
	return params, nil
}

// splitOptions splits the "options" startup parameter into arguments the way
// PostgreSQL's pg_split_opts does: whitespace separates, a backslash makes the
// next character literal (so "a\ b" is one argument "a b").
func splitOptions(s string) []string {
	var args []string
	var cur strings.Builder
	inArg := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		case ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inArg = true
		default:
			cur.WriteByte(ch)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

// parseOptions turns the arguments of the "options" parameter into settings.
// Only the switches that set run-time parameters are accepted: "-c name=value",
// "-cname=value" and "--name=value"; as in PostgreSQL, dashes in the name
// become underscores and the name is case-insensitive.
func parseOptions(s string, into map[string]string) error {
	args := splitOptions(s)
	for i := 0; i < len(args); i++ {
		a := args[i]
		var opt, flag string
		switch {
		case a == "-c":
			if i+1 >= len(args) {
				return pgerr.New(pgerr.SyntaxError, "invalid command-line argument for server process: %s", a).
					WithHint(`Try "postgres --help" for more information.`)
			}
			i++
			opt, flag = args[i], "-c"
		case strings.HasPrefix(a, "-c"):
			opt, flag = a[2:], "-c"
		case strings.HasPrefix(a, "--") && len(a) > 2:
			opt, flag = a[2:], "--"
		default:
			return pgerr.New(pgerr.SyntaxError, "invalid command-line argument for server process: %s", a).
				WithHint(`Try "postgres --help" for more information.`)
		}
		name, value, ok := strings.Cut(opt, "=")
		if !ok {
			if flag == "--" {
				return pgerr.New(pgerr.SyntaxError, "--%s requires a value", opt)
			}
			return pgerr.New(pgerr.SyntaxError, "-c %s requires a value", opt)
		}
		into[strings.ToLower(strings.ReplaceAll(name, "-", "_"))] = value
	}
	return nil
}

// sessionParams builds what Engine.NewSession receives from the startup
// parameters: the settings of "options" first, then the other parameters
// (which win on conflict, as in PostgreSQL), all names lower-cased, protocol
// options (_pq_.*) left out. It also returns the _pq_ options, which must be
// reported as unrecognized.
func sessionParams(startup map[string]string) (params map[string]string, pqOpts []string, err error) {
	params = make(map[string]string, len(startup)+4)
	if o, ok := startup["options"]; ok {
		if err := parseOptions(o, params); err != nil {
			return nil, nil, err
		}
	}
	for k, v := range startup {
		switch {
		case k == "options":
		case strings.HasPrefix(k, pqOptionPrefix):
			pqOpts = append(pqOpts, k)
		default:
			params[strings.ToLower(k)] = v
		}
	}
	if params["user"] == "" {
		return nil, nil, pgerr.New(pgerr.InvalidAuthorization, "no PostgreSQL user name specified in startup packet")
	}
	if params["database"] == "" {
		params["database"] = params["user"]
	}
	return params, pqOpts, nil
}
