package wire

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/joind/joind/activity"
	"github.com/joind/joind/pgerr"
)

// conn is one client connection. Everything but mu-guarded fields and the
// shutdown/cancel entry points is used only by the connection's goroutine,
// which is also the only writer of the socket.
type conn struct {
	srv    *Server
	nc     net.Conn // replaced by the TLS connection after SSLRequest (under mu)
	tls    bool
	pid    uint32
	secret [4]byte
	log    *slog.Logger

	// ctx ends when the server shuts down (cause errServerShutdown); the
	// session and every query context derive from it.
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu          sync.Mutex
	queryCancel context.CancelCauseFunc // of the running query; nil when idle

	be             *pgproto3.Backend
	sess           Session
	reported       map[string]string // last ParameterStatus value sent per name
	ignoreTillSync bool              // after an extended-protocol error
	ext            extState

	qctx     context.Context // of the running query
	pending  int             // bytes buffered since the last flush
	rows     int             // rows sent by the running query
	writeErr error           // first failed write; the connection is dead after it
	rowMsg   pgproto3.DataRow

	hasSlot bool              // holds a connection slot (connlimits.go; under srv.mu)
	started time.Time         // when the connection was accepted (backend_start)
	raw     net.Conn          // the accepted socket, under TLS if any (clientcheck.go)
	act     *activity.Backend // this connection in ServerOptions.Activity; nil without one
}

func newConn(s *Server, nc net.Conn, pid uint32) *conn {
	c := &conn{srv: s, nc: nc, raw: nc, pid: pid, reported: make(map[string]string)}
	_, _ = rand.Read(c.secret[:])
	base := WithConnInfo(context.Background(), ConnInfo{PID: pid, RemoteAddr: nc.RemoteAddr().String()})
	c.ctx, c.cancel = context.WithCancelCause(base)
	c.log = s.log.With("pid", pid, "remote", nc.RemoteAddr().String())
	return c
}

// shutdown is called by Server.Shutdown from another goroutine: it cancels the
// running query and wakes a goroutine blocked reading, which then sends
// FATAL 57P01 and closes.
func (c *conn) shutdown() {
	c.cancel(errServerShutdown)
	c.mu.Lock()
	nc := c.nc
	c.mu.Unlock()
	_ = nc.SetReadDeadline(time.Now())
}

// cancelQuery cancels the running query, if any (from a CancelRequest).
func (c *conn) cancelQuery(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.queryCancel != nil {
		c.queryCancel(cause)
	}
}

func adminShutdownError() *pgerr.Error {
	e := pgerr.New(pgerr.AdminShutdown, "terminating connection due to administrator command")
	e.Severity = "FATAL"
	return e
}

func (c *conn) serve() {
	c.started = time.Now()
	start := c.started
	authorized := false
	defer func() {
		pgerr.Recover(c.log, nil, "connection")
		if c.sess != nil {
			c.closeExtended()
			c.closeSession()
		}
		c.unregisterActivity()
		c.cancel(nil)
		c.nc.Close()
		c.srv.releaseSlot(c)
		if authorized {
			c.log.Info("disconnected", "duration", time.Since(start).Round(time.Millisecond))
		}
		c.srv.unregister(c)
	}()
	if authorized = c.startup(); !authorized {
		return
	}
	c.loop()
}

func (c *conn) closeSession() {
	defer pgerr.Recover(c.log, nil, "closing session")
	c.sess.Close()
}

// startup runs the startup phase up to the first ReadyForQuery. It returns
// false when the connection must be closed (including after a CancelRequest).
func (c *conn) startup() bool {
	_ = c.nc.SetDeadline(time.Now().Add(c.srv.opts.StartupTimeout))
	for n := 0; ; n++ {
		pkt, err := readStartupPacket(c.nc)
		if err != nil {
			c.log.Debug("startup packet not read", "err", err)
			return false
		}
		switch major, minor := pkt.code>>16, pkt.code&0xffff; {
		case pkt.code == sslRequestCode && c.srv.opts.TLS != nil && !c.tls:
			if n >= maxNegotiations || len(pkt.body) != 0 {
				return false
			}
			if !c.startTLS() {
				return false
			}
		case pkt.code == sslRequestCode || pkt.code == gssEncRequestCode:
			// No TLS (not configured, or already on) and no GSSAPI
			// encryption: 'N' tells the client to go on in plain text with
			// a StartupMessage on this same socket.
			if n >= maxNegotiations || len(pkt.body) != 0 {
				return false
			}
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return false
			}
		case pkt.code == cancelRequestCode:
			if len(pkt.body) == 8 {
				c.srv.cancelBackend(binary.BigEndian.Uint32(pkt.body), pkt.body[4:])
			}
			return false
		case major == protocolMajor3:
			return c.startSession(minor, pkt.body)
		default:
			c.be = pgproto3.NewBackend(c.nc, c.nc)
			c.sendFatal(pgerr.New(pgerr.FeatureNotSupported,
				"unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", major, minor))
			return false
		}
	}
}

// startTLS answers an SSLRequest with 'S' and runs the TLS handshake; the
// startup continues over TLS.
func (c *conn) startTLS() bool {
	if _, err := c.nc.Write([]byte{'S'}); err != nil {
		return false
	}
	tc := tls.Server(c.nc, c.srv.opts.TLS)
	if err := tc.Handshake(); err != nil {
		c.log.Info("TLS handshake failed", "err", err)
		return false
	}
	c.mu.Lock()
	c.nc, c.tls = tc, true
	c.mu.Unlock()
	return true
}

func (c *conn) startSession(minor uint32, body []byte) bool {
	c.be = pgproto3.NewBackend(&lengthGuard{r: c.nc}, c.nc)
	c.be.SetMaxBodyLen(c.srv.opts.MaxMessageSize)
	startup, err := parseStartupParams(body)
	if err != nil {
		c.sendFatal(pgerr.As(err))
		return false
	}
	if startup["user"] == "" {
		c.sendFatal(pgerr.New(pgerr.InvalidAuthorization, "no PostgreSQL user name specified in startup packet"))
		return false
	}
	if !c.srv.takeSlot(c) {
		c.sendFatal(errTooManyClients())
		return false
	}
	params, pqOpts, optErr := sessionParams(startup)
	if minor > 0 || len(pqOpts) > 0 {
		// A newer client asks for a minor version or protocol options we do
		// not know: tell it what we speak; it then carries on with 3.0.
		slices.Sort(pqOpts)
		c.be.Send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: protocolLatest, UnrecognizedOptions: pqOpts})
	}
	if fail := c.authenticate(params["user"], params["database"]); fail != nil {
		c.sendFatal(fail)
		return false
	}
	c.be.Send(&pgproto3.AuthenticationOk{})
	if !c.srv.isSuperuser(params["user"]) && c.srv.reservedOnly() {
		c.sendFatal(errReservedSlots())
		return false
	}
	if optErr != nil {
		c.sendFatal(pgerr.As(optErr))
		return false
	}
	if db := c.srv.opts.Database; db != "" && params["database"] != db {
		c.sendFatal(pgerr.New(pgerr.InvalidCatalogName, "database \"%s\" does not exist", params["database"]))
		return false
	}
	// Clearing the deadline could undo a concurrent shutdown's wake-up, so
	// look at the context after clearing it.
	_ = c.nc.SetDeadline(time.Time{})
	if c.ctx.Err() != nil {
		c.sendFatal(adminShutdownError())
		return false
	}
	sess, err := c.newSession(params)
	if err != nil {
		c.sendFatal(pgerr.As(err))
		return false
	}
	c.sess = sess
	c.registerActivity(params)
	c.reportSettings()
	c.be.Send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret[:]})
	c.log.Info("connection authorized", "user", params["user"], "database", params["database"],
		"application_name", params["application_name"], "tls", c.tls)
	c.readyForQuery()
	return c.writeErr == nil
}

func (c *conn) newSession(params map[string]string) (s Session, err error) {
	defer pgerr.Recover(c.log, &err, "starting session")
	s, err = c.srv.engine.NewSession(c.ctx, params)
	if err == nil && s == nil {
		err = pgerr.New(pgerr.InternalError, "engine returned no session")
	}
	if u, ok := s.(ObjectsUser); ok && err == nil {
		u.UseObjects(&c.ext)
	}
	return s, err
}

// loop reads and answers messages until the connection ends.
func (c *conn) loop() {
	for c.writeErr == nil {
		if c.ctx.Err() != nil {
			c.sendFatal(adminShutdownError())
			return
		}
		msg, err := c.be.Receive()
		if err != nil {
			if c.ctx.Err() != nil {
				c.sendFatal(adminShutdownError())
			} else {
				c.receiveFailed(err)
			}
			return
		}
		if c.ignoreTillSync {
			// After an error in an extended-protocol exchange everything up
			// to the next Sync is discarded.
			switch msg.(type) {
			case *pgproto3.Sync:
				c.ignoreTillSync = false
				c.sync()
			case *pgproto3.Terminate:
				return
			}
			continue
		}
		switch m := msg.(type) {
		case *pgproto3.Query:
			c.activityStart(m.String)
			if !c.simpleQuery(m.String) {
				return
			}
		case *pgproto3.Parse, *pgproto3.Bind, *pgproto3.Describe, *pgproto3.Execute, *pgproto3.Close:
			if !c.extended(m) {
				return
			}
		case *pgproto3.Sync:
			c.sync()
		case *pgproto3.Flush:
			c.flush()
		case *pgproto3.FunctionCall:
			c.sendError(pgerr.New(pgerr.FeatureNotSupported, "fastpath function calls are not supported"))
			c.readyForQuery()
		case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
			// Left over from an aborted COPY; PostgreSQL ignores them too.
		case *pgproto3.Terminate:
			return
		default:
			c.sendFatal(pgerr.New(pgerr.ProtocolViolation, "invalid frontend message type %d", messageTypeOf(msg)))
			return
		}
	}
}

// messageTypeOf returns the type byte of a decoded frontend message.
func messageTypeOf(msg pgproto3.FrontendMessage) byte {
	b, err := msg.Encode(nil)
	if err != nil || len(b) == 0 {
		return 0
	}
	return b[0]
}

// receiveFailed handles a Receive error: a vanished client is closed quietly,
// a malformed message gets FATAL 08P01 first.
func (c *conn) receiveFailed(err error) {
	var ne net.Error
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.As(err, &ne) {
		c.log.Debug("connection lost", "err", err)
		return
	}
	c.log.Warn("protocol violation", "err", err)
	var tooLong *pgproto3.ExceededMaxBodyLenErr
	msg := err.Error()
	switch {
	case errors.As(err, &tooLong):
		c.sendFatal(pgerr.New(pgerr.ProtocolViolation, "invalid message length").
			WithDetail("Message of %d bytes exceeds the limit of %d bytes.", tooLong.ActualBodyLen, tooLong.MaxExpectedBodyLen))
	case strings.HasPrefix(msg, "unknown message type: "):
		t := []rune(strings.TrimPrefix(msg, "unknown message type: "))
		code := 0
		if len(t) > 0 {
			code = int(t[0])
		}
		c.sendFatal(pgerr.New(pgerr.ProtocolViolation, "invalid frontend message type %d", code))
	case strings.HasPrefix(msg, "invalid message length"):
		c.sendFatal(pgerr.New(pgerr.ProtocolViolation, "invalid message length"))
	default:
		c.sendFatal(pgerr.New(pgerr.ProtocolViolation, "invalid message format"))
	}
}

// simpleQuery answers one Query message. It returns false when the
// connection must close.
func (c *conn) simpleQuery(sql string) bool {
	qctx, done := c.beginQuery()
	defer done()
	c.dropUnnamed()

	stmts, err := c.parse(sql)
	if err == nil && len(stmts) == 0 {
		c.be.Send(&pgproto3.EmptyQueryResponse{})
	}
	block, _ := c.sess.(QueryBlock)
	if block != nil {
		block.BeginQuery(len(stmts))
	}
	for _, st := range stmts {
		if err = qctx.Err(); err != nil {
			break // cancelled between statements
		}
		var tag string
		if d, ok := st.(Deallocation); ok {
			tag, err = c.deallocate(d)
		} else {
			tag, err = c.execute(qctx, st)
		}
		if c.writeErr != nil {
			if block != nil {
				_ = block.EndQuery(qctx, true) // the client is gone: undo
			}
			return false
		}
		if err != nil {
			break
		}
		c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	}
	if block != nil {
		if endErr := block.EndQuery(qctx, err != nil); err == nil {
			err = endErr
		}
	}
	if err != nil {
		pe := queryError(qctx, err)
		if pe.Code == pgerr.AdminShutdown {
			c.sendFatal(pe)
			return false
		}
		c.sendError(pe)
	}
	if c.sess.TxStatus() == 'I' {
		// Portals end with the transaction, as PostgreSQL's do.
		c.closePortals()
	}
	c.reportSettings()
	c.readyForQuery()
	return c.writeErr == nil
}

// queryError turns a statement's error into what the client sees: an
// error caused by the query context ending says why it ended.
func queryError(qctx context.Context, err error) *pgerr.Error {
	if qctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		pgerr.Code(err) == pgerr.QueryCanceled) {
		if errors.Is(context.Cause(qctx), errServerShutdown) {
			return adminShutdownError()
		}
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return pgerr.As(err)
}

func (c *conn) parse(sql string) (stmts []Statement, err error) {
	defer pgerr.Recover(c.log, &err, "parsing a query", "query", sql)
	// Like PostgreSQL (pq_getmsgstring), refuse a query string that is
	// not UTF-8 before anything parses it.
	if err := pgerr.CheckUTF8String(sql); err != nil {
		return nil, err
	}
	return c.sess.Parse(sql)
}

func (c *conn) execute(ctx context.Context, st Statement) (tag string, err error) {
	defer pgerr.Recover(c.log, &err, "executing a statement", "statement", st.SQL())
	return c.sess.Execute(ctx, st, &stmtWriter{c: c})
}

// reportSettings sends ParameterStatus for every reported setting whose value
// differs from what the client last heard (all of them at startup). Like
// PostgreSQL 14+, this happens once per query, just before ReadyForQuery.
func (c *conn) reportSettings() {
	cur := c.sess.ReportedSettings()
	names := make([]string, 0, len(cur))
	for name, v := range cur {
		if old, ok := c.reported[name]; !ok || old != v {
			names = append(names, name)
		}
	}
	// PostgreSQL sends them in case-insensitive name order.
	slices.SortFunc(names, func(a, b string) int {
		return strings.Compare(strings.ToLower(a), strings.ToLower(b))
	})
	for _, name := range names {
		c.be.Send(&pgproto3.ParameterStatus{Name: name, Value: cur[name]})
		c.reported[name] = cur[name]
	}
}

func (c *conn) readyForQuery() {
	st := c.sess.TxStatus()
	// Recorded first: once the client reads ReadyForQuery, another
	// session's pg_stat_activity must see this one idle.
	c.activityReady(st)
	c.be.Send(&pgproto3.ReadyForQuery{TxStatus: st})
	c.flush()
}

func (c *conn) flush() {
	c.pending = 0
	if c.writeErr != nil {
		return
	}
	if err := c.be.Flush(); err != nil {
		c.writeErr = err
		c.log.Debug("write failed", "err", err)
	}
}

// wrote accounts n buffered bytes and flushes past the threshold, so a large
// result streams instead of piling up in memory.
func (c *conn) wrote(n int) error {
	c.pending += n
	if c.pending >= c.srv.opts.FlushBytes {
		c.flush()
		if c.writeErr == nil && c.qctx != nil {
			if err := c.qctx.Err(); err != nil {
				return err
			}
		}
	}
	return c.writeErr
}

func errorFields(pe *pgerr.Error, severity string) pgproto3.ErrorResponse {
	if pe.Severity != "" {
		severity = pe.Severity
	}
	return pgproto3.ErrorResponse{
		Severity:            severity,
		SeverityUnlocalized: severity,
		Code:                pe.Code,
		Message:             pe.Message,
		Detail:              pe.Detail,
		Hint:                pe.Hint,
		Position:            int32(pe.Position),
		Where:               pe.Where,
	}
}

func (c *conn) sendError(pe *pgerr.Error) {
	m := errorFields(pe, "ERROR")
	c.be.Send(&m)
}

// sendFatal sends a FATAL error and flushes; the caller then closes.
func (c *conn) sendFatal(pe *pgerr.Error) {
	m := errorFields(pe, "FATAL")
	m.Severity, m.SeverityUnlocalized = "FATAL", "FATAL"
	c.be.Send(&m)
	c.flush()
}

// stmtWriter is the ResultWriter of one statement.
type stmtWriter struct {
	c *conn
}

func (w *stmtWriter) Describe(cols []ColumnDesc) error {
	fields := make([]pgproto3.FieldDescription, len(cols))
	n := 7
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.AttrNum),
			DataTypeOID:          col.TypeOID,
			DataTypeSize:         col.TypeSize,
			TypeModifier:         col.TypeMod,
			Format:               col.Format,
		}
		n += len(col.Name) + 19
	}
	w.c.be.Send(&pgproto3.RowDescription{Fields: fields})
	return w.c.wrote(n)
}

func (w *stmtWriter) Row(values [][]byte) error {
	c := w.c
	c.rowMsg.Values = values
	c.be.Send(&c.rowMsg) // encodes now: values may be reused once we return
	c.rowMsg.Values = nil
	n := 7
	for _, v := range values {
		n += 4 + len(v)
	}
	c.rows++
	if c.rows&1023 == 0 && c.qctx != nil {
		// Lets an engine that forgets to watch ctx still stop on cancel.
		if err := c.qctx.Err(); err != nil {
			return err
		}
	}
	return c.wrote(n)
}

func (w *stmtWriter) Notice(n *pgerr.Error) error {
	m := pgproto3.NoticeResponse(errorFields(n, "NOTICE"))
	w.c.be.Send(&m)
	return w.c.wrote(len(n.Message) + 32)
}
