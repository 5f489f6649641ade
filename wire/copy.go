package wire

import (
	"errors"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/joind/joind/pgerr"
)

var _ CopyChannel = (*stmtWriter)(nil)

// CopyIn implements CopyChannel.
func (w *stmtWriter) CopyIn(format int16, columns int) (io.Reader, error) {
	c := w.c
	fc := make([]uint16, columns)
	for i := range fc {
		fc[i] = uint16(format)
	}
	c.be.Send(&pgproto3.CopyInResponse{OverallFormat: byte(format), ColumnFormatCodes: fc})
	c.flush()
	if c.writeErr != nil {
		return nil, c.writeErr
	}
	return &copyInReader{c: c}, nil
}

// copyInReader reads the client's CopyData messages. psql sends one
// message per 8 KiB of lines, so a Read fills the caller's buffer from as
// many messages as fit, copying each payload once straight out of
// pgproto3's receive buffer (which the next Receive reuses); only the part
// of a message that does not fit is kept, in spill, for the next Read.
type copyInReader struct {
	c     *conn
	buf   []byte // unread bytes of the last message (aliases spill)
	spill []byte
	done  error // io.EOF after CopyDone, the failure after CopyFail
}

func (r *copyInReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.buf) > 0 {
			k := copy(p[n:], r.buf)
			r.buf = r.buf[k:]
			n += k
			continue
		}
		if r.done != nil {
			break
		}
		if r.c.qctx != nil {
			if err := r.c.qctx.Err(); err != nil {
				r.done = err
				break
			}
		}
		msg, err := r.c.be.Receive()
		if err != nil {
			r.done = pgerr.New("08006", "unexpected EOF on client connection with an open transaction")
			break
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			k := copy(p[n:], m.Data)
			n += k
			if k < len(m.Data) {
				r.spill = append(r.spill[:0], m.Data[k:]...)
				r.buf = r.spill
			}
		case *pgproto3.CopyDone:
			r.done = io.EOF
		case *pgproto3.CopyFail:
			r.done = pgerr.New(pgerr.QueryCanceled, "COPY from stdin failed: %s", m.Message)
		case *pgproto3.Flush, *pgproto3.Sync:
			// PostgreSQL ignores these during COPY FROM STDIN.
		default:
			r.done = pgerr.New(pgerr.ProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", messageTypeOf(msg))
		}
	}
	if n > 0 {
		// The data before an end or a failure is delivered first; the
		// next Read reports the end or the failure.
		return n, nil
	}
	if len(p) == 0 {
		return 0, nil
	}
	return 0, r.done
}

// CopyOut implements CopyChannel.
func (w *stmtWriter) CopyOut(format int16, columns int) (io.WriteCloser, error) {
	c := w.c
	fc := make([]uint16, columns)
	for i := range fc {
		fc[i] = uint16(format)
	}
	c.be.Send(&pgproto3.CopyOutResponse{OverallFormat: byte(format), ColumnFormatCodes: fc})
	if err := c.wrote(16 + columns*2); err != nil {
		return nil, err
	}
	return &copyOutWriter{c: c}, nil
}

type copyOutWriter struct {
	c      *conn
	closed bool
}

func (w *copyOutWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errors.New("copy out: write after close")
	}
	w.c.be.Send(&pgproto3.CopyData{Data: p})
	if err := w.c.wrote(len(p) + 5); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *copyOutWriter) Close() error {
	if !w.closed {
		w.closed = true
		w.c.be.Send(&pgproto3.CopyDone{})
	}
	return w.c.writeErr
}
