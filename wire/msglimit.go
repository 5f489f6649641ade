package wire

import (
	"encoding/binary"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"
)

// PostgreSQL's per-type message limits (SocketBackend, ClientAuthentication):
// messages that carry no data may not claim more than PQ_SMALL_MESSAGE_LIMIT,
// a password message no more than PG_MAX_AUTH_TOKEN_LENGTH. The others are
// bounded by ServerOptions.MaxMessageSize, which pgproto3 enforces.
const (
	smallMessageLimit = 10000
	authMessageLimit  = 65535
)

func messageLimit(typ byte) int {
	switch typ {
	case 'C', 'D', 'E', 'H', 'S', 'X', 'c', 'f': // Close, Describe, Execute, Flush, Sync, Terminate, CopyDone, CopyFail
		return smallMessageLimit
	case 'p':
		return authMessageLimit
	}
	return -1
}

// lengthGuard reads the socket for pgproto3.Backend and checks each message
// header as it passes, so that a small message claiming a large length is
// refused before pgproto3 allocates a buffer of that length. Messages before
// the bad one are delivered first; the next Read returns the error (as
// pgproto3's own ExceededMaxBodyLenErr, which receiveFailed reports).
type lengthGuard struct {
	r    io.Reader
	hdr  [5]byte
	nhdr int // header bytes seen of the next message
	body int // body bytes of the current message still to pass
	err  error
}

func (g *lengthGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	for i := 0; i < n; {
		if g.body > 0 {
			k := min(g.body, n-i)
			g.body -= k
			i += k
			continue
		}
		start := i - g.nhdr // where this header began in p (< 0: in an earlier Read)
		g.hdr[g.nhdr] = p[i]
		g.nhdr++
		i++
		if g.nhdr < len(g.hdr) {
			continue
		}
		g.nhdr = 0
		size := int(int32(binary.BigEndian.Uint32(g.hdr[1:]))) - 4
		if limit := messageLimit(g.hdr[0]); limit >= 0 && size > limit {
			g.err = &pgproto3.ExceededMaxBodyLenErr{MaxExpectedBodyLen: limit, ActualBodyLen: size}
			if start <= 0 {
				return 0, g.err
			}
			return start, nil
		}
		g.body = max(size, 0) // a negative length is pgproto3's to refuse
	}
	return n, err
}
