package wire

import (
	"context"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/joind/joind/pgerr"
)

// extState is a connection's extended-protocol state: its prepared
// statements and portals by name ("" is the unnamed one).
type extState struct {
	stmts   map[string]PreparedStatement
	portals map[string]Portal
}

func (c *conn) extSession() (ExtendedSession, bool) {
	es, ok := c.sess.(ExtendedSession)
	if ok {
		c.ext.init()
	}
	return es, ok
}

func (x *extState) init() {
	if x.stmts == nil {
		x.stmts = map[string]PreparedStatement{}
		x.portals = map[string]Portal{}
	}
}

var _ Objects = (*extState)(nil)

func (x *extState) Statement(name string) (PreparedStatement, bool) {
	ps, ok := x.stmts[name]
	return ps, ok
}

func (x *extState) AddStatement(name string, ps PreparedStatement) bool {
	x.init()
	if _, dup := x.stmts[name]; dup {
		return false
	}
	x.stmts[name] = ps
	return true
}

func (x *extState) RemoveStatement(name string) {
	if ps, ok := x.stmts[name]; ok {
		ps.Close()
		delete(x.stmts, name)
	}
}

func (x *extState) StatementNames() []string {
	var out []string
	for n := range x.stmts {
		if n != "" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func (x *extState) Portal(name string) (Portal, bool) {
	p, ok := x.portals[name]
	return p, ok
}

func (x *extState) AddPortal(name string, p Portal) bool {
	x.init()
	if _, dup := x.portals[name]; dup {
		return false
	}
	x.portals[name] = p
	return true
}

func (x *extState) RemovePortal(name string) {
	if p, ok := x.portals[name]; ok {
		p.Close()
		delete(x.portals, name)
	}
}

// extended handles one extended-protocol message. An error sends
// ErrorResponse and makes the connection skip messages up to Sync.
// It returns false when the connection must close.
func (c *conn) extended(msg pgproto3.FrontendMessage) bool {
	es, ok := c.extSession()
	if !ok {
		c.extError(pgerr.New(pgerr.FeatureNotSupported, "extended query protocol is not supported"))
		return true
	}
	var err error
	func() {
		defer pgerr.Recover(c.log, &err, "the extended protocol")
		switch m := msg.(type) {
		case *pgproto3.Parse:
			err = c.parseMsg(es, m)
		case *pgproto3.Bind:
			err = c.bindMsg(m)
		case *pgproto3.Describe:
			err = c.describeMsg(m)
		case *pgproto3.Execute:
			err = c.executeMsg(m)
		case *pgproto3.Close:
			c.closeMsg(m)
		}
	}()
	if c.writeErr != nil {
		return false
	}
	if err != nil {
		pe := pgerr.As(err)
		if pe.Code == pgerr.AdminShutdown {
			c.sendFatal(pe)
			return false
		}
		c.sendError(pe)
		c.ignoreTillSync = true
		c.flush()
	}
	return c.writeErr == nil
}

func (c *conn) extError(pe *pgerr.Error) {
	c.sendError(pe)
	c.ignoreTillSync = true
	c.flush()
}

func (c *conn) parseMsg(es ExtendedSession, m *pgproto3.Parse) error {
	if m.Name != "" {
		if _, dup := c.ext.stmts[m.Name]; dup {
			return pgerr.New("42P05", "prepared statement \"%s\" already exists", m.Name)
		}
	}
	if err := pgerr.CheckUTF8String(m.Query); err != nil {
		return err
	}
	var ps PreparedStatement
	if d, ok := c.parseDeallocation(m.Query); ok {
		ps = &deallocateStmt{c: c, d: d}
	} else {
		var err error
		if ps, err = es.Prepare(m.Query, m.ParameterOIDs); err != nil {
			return err
		}
	}
	if old, ok := c.ext.stmts[m.Name]; ok {
		old.Close()
	}
	c.ext.stmts[m.Name] = ps
	c.be.Send(&pgproto3.ParseComplete{})
	return nil
}

// expandFormats turns a message's format codes (none = all text, one = all
// the same, else one each) into one code per item.
func expandFormats(codes []int16, n int, what string) ([]int16, error) {
	out := make([]int16, n)
	switch {
	case len(codes) == 0:
	case len(codes) == 1:
		for i := range out {
			out[i] = codes[0]
		}
	case len(codes) == n:
		copy(out, codes)
	default:
		return nil, pgerr.New(pgerr.ProtocolViolation, "bind message has %d %s formats but %d %ss", len(codes), what, n, what)
	}
	for _, f := range out {
		if f != 0 && f != 1 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unsupported format code: %d", f)
		}
	}
	return out, nil
}

func (c *conn) bindMsg(m *pgproto3.Bind) error {
	ps, ok := c.ext.stmts[m.PreparedStatement]
	if !ok {
		return noSuchStatement(m.PreparedStatement)
	}
	if m.DestinationPortal != "" {
		if _, dup := c.ext.portals[m.DestinationPortal]; dup {
			return pgerr.New("42P03", "cursor \"%s\" already exists", m.DestinationPortal) // CreatePortal's wording
		}
	}
	nparams := len(ps.ParamOIDs())
	if len(m.Parameters) != nparams {
		return pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
			len(m.Parameters), m.PreparedStatement, nparams)
	}
	pf, err := expandFormats(m.ParameterFormatCodes, nparams, "parameter")
	if err != nil {
		return err
	}
	var rf []int16
	if cols := ps.Columns(); len(m.ResultFormatCodes) > 0 {
		// A client may send one code for a statement without rows.
		if rf, err = expandFormats(m.ResultFormatCodes, len(cols), "result"); err != nil && len(cols) > 0 {
			return err
		}
	}
	p, err := ps.Bind(m.Parameters, pf, rf)
	if err != nil {
		return err
	}
	if old, ok := c.ext.portals[m.DestinationPortal]; ok {
		old.Close()
	}
	c.ext.portals[m.DestinationPortal] = p
	c.be.Send(&pgproto3.BindComplete{})
	return nil
}

func (c *conn) describeMsg(m *pgproto3.Describe) error {
	var cols []ColumnDesc
	switch m.ObjectType {
	case 'S':
		ps, ok := c.ext.stmts[m.Name]
		if !ok {
			return noSuchStatement(m.Name)
		}
		c.be.Send(&pgproto3.ParameterDescription{ParameterOIDs: ps.ParamOIDs()})
		cols = ps.Columns()
	case 'P':
		p, ok := c.ext.portals[m.Name]
		if !ok {
			return pgerr.New("34000", "portal \"%s\" does not exist", m.Name)
		}
		cols = p.Columns()
	default:
		return pgerr.New(pgerr.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
	if cols == nil {
		c.be.Send(&pgproto3.NoData{})
		return nil
	}
	return (&stmtWriter{c: c}).Describe(cols)
}

func (c *conn) executeMsg(m *pgproto3.Execute) error {
	p, ok := c.ext.portals[m.Portal]
	if !ok {
		return pgerr.New("34000", "portal \"%s\" does not exist", m.Portal)
	}
	if q, ok := p.(QueryText); ok {
		c.activityStart(q.SQL())
	}
	qctx, done := c.beginQuery()
	defer done()
	tag, suspended, err := p.Execute(qctx, int(m.MaxRows), &portalWriter{stmtWriter{c: c}})
	if c.writeErr != nil {
		return c.writeErr
	}
	if err != nil {
		return queryError(qctx, err)
	}
	switch {
	case suspended:
		c.be.Send(&pgproto3.PortalSuspended{})
	case tag == "":
		c.be.Send(&pgproto3.EmptyQueryResponse{})
	default:
		c.be.Send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	}
	return nil
}

func (c *conn) closeMsg(m *pgproto3.Close) {
	switch m.ObjectType {
	case 'S':
		if ps, ok := c.ext.stmts[m.Name]; ok {
			ps.Close()
			delete(c.ext.stmts, m.Name)
		}
	case 'P':
		if p, ok := c.ext.portals[m.Name]; ok {
			p.Close()
			delete(c.ext.portals, m.Name)
		}
	}
	c.be.Send(&pgproto3.CloseComplete{})
}

// sync ends an extended-protocol exchange: outside a transaction block the
// portals end with the implicit transaction, as PostgreSQL's do.
func (c *conn) sync() {
	if pb, ok := c.sess.(PipelineBlock); ok {
		if err := pb.Sync(c.ctx); err != nil {
			c.sendError(pgerr.As(err))
		}
	}
	if c.sess.TxStatus() == 'I' {
		c.closePortals()
	}
	c.reportSettings()
	c.readyForQuery()
}

func (c *conn) closePortals() {
	for name, p := range c.ext.portals {
		if h, ok := p.(HeldPortal); ok && h.Held() {
			continue // a WITH HOLD cursor outlives the transaction
		}
		p.Close()
		delete(c.ext.portals, name)
	}
}

// closeExtended releases every statement and portal (connection end).
func (c *conn) closeExtended() {
	c.closePortals()
	for name, ps := range c.ext.stmts {
		ps.Close()
		delete(c.ext.stmts, name)
	}
}

// beginQuery makes the context of one query (a Query or an Execute message)
// that a CancelRequest can cancel; done ends it.
func (c *conn) beginQuery() (context.Context, func()) {
	qctx, cancel := context.WithCancelCause(c.ctx)
	c.mu.Lock()
	c.queryCancel = cancel
	c.mu.Unlock()
	c.qctx, c.rows = qctx, 0
	stopWatch := c.watchClient(cancel)
	return qctx, func() {
		stopWatch()
		c.mu.Lock()
		c.queryCancel = nil
		c.mu.Unlock()
		cancel(nil)
		c.qctx = nil
	}
}

// portalWriter is the ResultWriter of an Execute: RowDescription belongs to
// Describe in the extended protocol, so Describe sends nothing.
type portalWriter struct{ stmtWriter }

func (w *portalWriter) Describe([]ColumnDesc) error { return nil }

// parseDeallocation recognises a DEALLOCATE sent with the extended
// protocol (psycopg 3 sends DEALLOCATE ALL after a ROLLBACK).
func (c *conn) parseDeallocation(sql string) (Deallocation, bool) {
	t := strings.TrimSpace(sql)
	if len(t) < len("DEALLOCATE") || !strings.EqualFold(t[:len("DEALLOCATE")], "DEALLOCATE") {
		return nil, false
	}
	stmts, err := c.parse(sql)
	if err != nil || len(stmts) != 1 {
		return nil, false
	}
	d, ok := stmts[0].(Deallocation)
	return d, ok
}

// deallocateStmt is an extended-protocol DEALLOCATE, statement and portal
// at once: wire owns the prepared statements, so Execute runs it.
type deallocateStmt struct {
	c *conn
	d Deallocation
}

func (s *deallocateStmt) ParamOIDs() []uint32   { return nil }
func (s *deallocateStmt) Columns() []ColumnDesc { return nil }
func (s *deallocateStmt) Close()                {}
func (s *deallocateStmt) Bind([][]byte, []int16, []int16) (Portal, error) {
	return s, nil
}
func (s *deallocateStmt) Execute(context.Context, int, ResultWriter) (string, bool, error) {
	tag, err := s.c.deallocate(s.d)
	return tag, false, err
}

// deallocate runs DEALLOCATE: it closes a named statement, or all of them.
func (c *conn) deallocate(d Deallocation) (string, error) {
	if c.sess.TxStatus() == 'E' {
		return "", pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	name, all := d.Deallocate()
	c.extSession()
	if all {
		for n, ps := range c.ext.stmts {
			if n != "" {
				ps.Close()
				delete(c.ext.stmts, n)
			}
		}
		return "DEALLOCATE ALL", nil
	}
	ps, ok := c.ext.stmts[name]
	if !ok || name == "" {
		return "", pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
	}
	ps.Close()
	delete(c.ext.stmts, name)
	return "DEALLOCATE", nil
}

// dropUnnamed closes the unnamed statement and portal: a simple Query
// replaces them, as in PostgreSQL.
func (c *conn) dropUnnamed() {
	if p, ok := c.ext.portals[""]; ok {
		p.Close()
		delete(c.ext.portals, "")
	}
	if ps, ok := c.ext.stmts[""]; ok {
		ps.Close()
		delete(c.ext.stmts, "")
	}
}

func noSuchStatement(name string) error {
	if name == "" {
		return pgerr.New(pgerr.InvalidSQLStatementName, "unnamed prepared statement does not exist")
	}
	return pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
}
