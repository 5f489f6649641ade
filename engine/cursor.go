package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/joind/joind/operators"
	"github.com/joind/joind/pgcatalog"
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/storage"
	"github.com/joind/joind/types"
	"github.com/joind/joind/wire"
)

// SQL cursors: DECLARE / FETCH / MOVE / CLOSE. A cursor is a portal in the
// connection's portal table (wire.Objects), which the extended protocol's
// Bind shares, so Describe and Execute of a cursor's name work as in
// PostgreSQL. Its query starts at DECLARE, in the declaring transaction's
// snapshot, and yields rows as FETCH asks for them. Positioning follows
// PostgreSQL's portal (pquery.c: DoPortalRunFetch, PortalRunSelect,
// DoPortalRewind) move for move, over the rows read so far: a scrollable
// cursor keeps them all, a NO SCROLL one only those not yet passed.
//
// At the end of the declaring transaction a cursor closes, unless it is
// WITH HOLD and the transaction commits: then its remaining rows are read
// before the commit (an error there fails the COMMIT, as in PostgreSQL),
// and it lives on until CLOSE, DISCARD ALL or the end of the session. A
// rollback closes the cursors the transaction (or the rolled-back
// savepoint) declared, held or not.
//
// WHERE CURRENT OF (session.currentOf, through sql.BindOptions.CurrentOf):
// a cursor that is one scan of a stored table under filters, projections
// and LIMIT also yields each row's storage.RowID in a hidden last column;
// UPDATE/DELETE then keep the target row whose RowID the cursor is on.

// cursor is one DECLAREd cursor.
type cursor struct {
	s       *session
	name    string
	text    string
	binary  bool
	hold    bool
	scroll  bool
	created time.Time
	seq     int64 // declaration order, for ROLLBACK TO SAVEPOINT
	// open: the declaring transaction has not ended (a held cursor is
	// materialized when it commits).
	open bool

	cols   []plan.Column
	stream operators.Stream
	cancel context.CancelFunc
	rec    arrow.Record // the batch being read from stream
	recRow int
	eof    bool
	err    error // the stream failed: every later read fails the same way

	// buf holds rows base+1 .. base+len(buf) (1-based).
	buf  []rowRef
	base int64

	// The executor's position: 0 before the first row, n+1 after the
	// last, else on row exPos. The rest is PostgreSQL's portal state.
	exPos     int64
	portalPos int64
	atStart   bool
	atEnd     bool

	closed bool

	// ridTable is the table a simply updatable cursor scans (WHERE
	// CURRENT OF; nil: none), ridCol the hidden output column of its
	// RowIDs.
	ridTable storage.Table
	ridCol   int
	// lockRows: a FOR UPDATE cursor, which locks each row of ridTable as
	// it reads it (cursor_lock.go), waiting under ctx (its query's).
	lockRows bool
	ctx      context.Context
}

type rowRef struct {
	rec arrow.Record
	i   int
}

var (
	_ wire.Portal     = (*cursor)(nil)
	_ wire.HeldPortal = (*cursor)(nil)
)

func errNoCursor(name string) error {
	return pgerr.New("34000", "cursor \"%s\" does not exist", name)
}

func errForwardOnly() error {
	return pgerr.New("55000", "cursor can only scan forward").WithHint("Declare it with SCROLL option to enable backward scan.")
}

// declareCursor runs DECLARE.
func (s *session) declareCursor(ctx context.Context, x *sql.DeclareCursor, ectx *types.EvalContext) (string, error) {
	if !x.Hold && !s.fsm.state.inTransactionBlock() {
		return "", pgerr.New("25P01", "DECLARE CURSOR can only be used in transaction blocks")
	}
	if _, dup := s.objs.Portal(x.Name); dup {
		return "", pgerr.New("42P03", "cursor \"%s\" already exists", x.Name)
	}
	c := &cursor{s: s, name: x.Name, text: x.SQL, binary: x.Binary, hold: x.Hold, created: time.Now(),
		open: true, cols: x.Query.Plan.Columns(), atStart: true}
	c.scroll = x.Scroll || (!x.NoScroll && scrollByDefault(x.Query.Plan))
	c.ridTable, c.ridCol = addRowIDs(x.Query)
	if x.ForUpdate {
		if c.ridTable == nil {
			return "", pgerr.New(pgerr.FeatureNotSupported, "SELECT FOR UPDATE/SHARE is not supported")
		}
		c.lockRows = true
	}
	freezeTables(x.Query.Plan)
	plan.BindLimitParams(x.Query.Plan, s.params) // DECLARE ... LIMIT $1 through Bind
	// A cursor that is one scan of a table reads it in storage order on
	// one partition, as PostgreSQL's reads the heap (COPY TO does the
	// same): its row positions, and the row WHERE CURRENT OF names, are
	// then PostgreSQL's.
	partitions := 0
	if c.ridTable != nil {
		partitions = 1
	}
	prep, _, err := s.prepareWith(x.Query, ectx, false, partitions)
	if err != nil {
		return "", err
	}
	// The query outlives this statement, so it gets a context of its own;
	// each FETCH's context cancels it.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	ectx.Ctx = sctx
	if c.stream, err = prep.q.Open(sctx); err != nil {
		cancel()
		return "", err
	}
	c.cancel, c.ctx = cancel, sctx
	s.cursorSeq++
	c.seq = s.cursorSeq
	s.objs.AddPortal(c.name, c)
	s.cursors = append(s.cursors, c)
	return "DECLARE CURSOR", nil
}

// scrollByDefault is PostgreSQL's choice for a cursor declared with
// neither SCROLL nor NO SCROLL: scrollable when its plan can run backward
// (ExecSupportsBackwardScan). joind's logical plan stands in for
// PostgreSQL's: scans, VALUES, set-returning functions and sorts can,
// filters, projections and LIMIT when their input can, UNION ALL when
// both inputs can; aggregates, joins, DISTINCT, other set operations and
// a SELECT without FROM (a Result node) cannot.
func scrollByDefault(n plan.Node) bool {
	switch x := n.(type) {
	case *plan.Scan, *plan.FunctionScan, *plan.CTEScan, *plan.Sort:
		return true
	case *plan.Values:
		return len(x.Cols) > 0
	case *plan.Filter:
		return scrollByDefault(x.Input)
	case *plan.Project:
		return scrollByDefault(x.Input)
	case *plan.Limit:
		return scrollByDefault(x.Input)
	case *plan.SetOp:
		return x.Op == plan.Union && x.All && scrollByDefault(x.Left) && scrollByDefault(x.Right)
	}
	return false
}

// lookupCursor finds a DECLAREd cursor by name.
func (s *session) lookupCursor(name string) (*cursor, error) {
	p, ok := s.objs.Portal(name)
	if !ok {
		return nil, errNoCursor(name)
	}
	c, ok := p.(*cursor)
	if !ok {
		// A protocol-level portal: PostgreSQL can FETCH it; joind's
		// portals run forward only through Execute.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "FETCH from a protocol-level portal is not supported")
	}
	return c, nil
}

// fetch runs FETCH / MOVE.
func (s *session) fetch(ctx context.Context, x *sql.Fetch, w wire.ResultWriter) (string, error) {
	c, err := s.lookupCursor(x.Name)
	if err != nil {
		return "", err
	}
	var emit func(rowRef) error
	if !x.Move {
		cols := c.describe()
		if err := w.Describe(cols); err != nil {
			return "", err
		}
		enc := newRowEncoder(c.cols, c.formats(), s.format())
		emit = func(r rowRef) error { return w.Row(enc.Encode(r.rec, r.i)) }
	}
	stop := c.watch(ctx)
	n, err := c.runFetch(x.Direction, x.Count, emit)
	stop()
	if err != nil {
		return "", s.translateCancel(ctx, err)
	}
	if x.Move {
		return fmt.Sprintf("MOVE %d", n), nil
	}
	return fmt.Sprintf("FETCH %d", n), nil
}

// watch cancels the cursor's query when ctx (one statement's) ends before
// stop is called.
func (c *cursor) watch(ctx context.Context) (stop func() bool) {
	if c.cancel == nil {
		return func() bool { return true }
	}
	return context.AfterFunc(ctx, c.cancel)
}

// closeCursors runs CLOSE name | ALL.
func (s *session) closeCursors(x *sql.ClosePortal) (string, error) {
	if x.All {
		for len(s.cursors) > 0 {
			s.dropCursor(s.cursors[0])
		}
		return "CLOSE CURSOR ALL", nil
	}
	p, ok := s.objs.Portal(x.Name)
	if !ok {
		return "", errNoCursor(x.Name)
	}
	if c, ok := p.(*cursor); ok {
		s.dropCursor(c)
	} else {
		s.objs.RemovePortal(x.Name)
	}
	return "CLOSE CURSOR", nil
}

// dropCursor closes c and takes it out of the portal table.
func (s *session) dropCursor(c *cursor) {
	if p, ok := s.objs.Portal(c.name); ok && p == wire.Portal(c) {
		s.objs.RemovePortal(c.name) // calls c.Close
	}
	c.Close()
}

// holdCursors reads the rest of every WITH HOLD cursor the committing
// transaction declared (PostgreSQL's PersistHoldablePortal): after the
// commit they no longer read the transaction.
func (s *session) holdCursors(ctx context.Context) error {
	for _, c := range s.cursors {
		if !c.hold || !c.open {
			continue
		}
		stop := c.watch(ctx)
		err := c.fill(-1)
		stop()
		if err != nil {
			return err
		}
		c.stopStream()
	}
	return nil
}

// cursorsEnd closes the cursors that end with the transaction: all but the
// held ones at a commit, those it declared at a rollback.
func (s *session) cursorsEnd(committed bool) {
	for _, c := range append([]*cursor(nil), s.cursors...) {
		if c.open && (!committed || !c.hold) {
			s.dropCursor(c)
		}
		c.open = false
	}
	s.cursorSavepoints = nil
	s.moves = nil
}

// cursorSavepoint is where a savepoint was set in the declaration order.
type cursorSavepoint struct {
	name string
	seq  int64
}

func (s *session) cursorsSavepoint(name string) {
	s.cursorSavepoints = append(s.cursorSavepoints, cursorSavepoint{name, s.cursorSeq})
}

// findCursorSavepoint is the innermost savepoint of that name (-1: none).
func (s *session) findCursorSavepoint(name string) int {
	for i := len(s.cursorSavepoints) - 1; i >= 0; i-- {
		if s.cursorSavepoints[i].name == name {
			return i
		}
	}
	return -1
}

func (s *session) cursorsRelease(name string) {
	if i := s.findCursorSavepoint(name); i >= 0 {
		s.cursorSavepoints = s.cursorSavepoints[:i]
	}
}

// cursorsRollbackTo closes the cursors declared since the savepoint.
func (s *session) cursorsRollbackTo(name string) {
	i := s.findCursorSavepoint(name)
	if i < 0 {
		return
	}
	seq := s.cursorSavepoints[i].seq
	s.cursorSavepoints = s.cursorSavepoints[:i+1]
	for _, c := range append([]*cursor(nil), s.cursors...) {
		if c.open && c.seq > seq {
			s.dropCursor(c)
		}
	}
}

// Cursors implements pgcatalog.SessionObjects.
func (o sessionObjects) Cursors() []pgcatalog.CursorInfo {
	var out []pgcatalog.CursorInfo
	for _, c := range o.s.cursors {
		out = append(out, pgcatalog.CursorInfo{Name: c.name, Statement: c.text, Holdable: c.hold, Binary: c.binary,
			Scrollable: c.scroll, Created: c.created})
	}
	return out
}

// The portal side (wire.Portal), for Describe and Execute of a cursor.

func (c *cursor) formats() []int16 {
	f := make([]int16, len(c.cols))
	if c.binary {
		for i := range f {
			f[i] = 1
		}
	}
	return f
}

func (c *cursor) describe() []wire.ColumnDesc {
	d := describe(c.cols)
	for i := range d {
		if c.binary {
			d[i].Format = 1
		}
	}
	return d
}

// Columns implements wire.Portal.
func (c *cursor) Columns() []wire.ColumnDesc { return c.describe() }

// Execute implements wire.Portal: the next maxRows rows (0: all), as
// PortalRun runs a cursor's portal.
func (c *cursor) Execute(ctx context.Context, maxRows int, w wire.ResultWriter) (string, bool, error) {
	s := c.s
	if s.fsm.state == stFailedBlock {
		return "", false, errAborted()
	}
	enc := newRowEncoder(c.cols, c.formats(), s.format())
	count := int64(maxRows)
	if count <= 0 {
		count = sql.FetchAll
	}
	stop := c.watch(ctx)
	n, err := c.runSelect(true, count, func(r rowRef) error { return w.Row(enc.Encode(r.rec, r.i)) })
	stop()
	if err != nil {
		return "", false, s.translateCancel(ctx, err)
	}
	if !c.atEnd {
		return "", true, nil
	}
	return fmt.Sprintf("SELECT %d", n), false, nil
}

// Held implements wire.HeldPortal: a held cursor outlives its
// transaction; wire leaves it open at the transaction's end (the engine
// closes what ends with it).
func (c *cursor) Held() bool { return c.hold }

// Close implements wire.Portal.
func (c *cursor) Close() {
	if c.closed {
		return
	}
	c.closed = true
	c.stopStream()
	c.buf = nil
	s := c.s
	for i, o := range s.cursors {
		if o == c {
			s.cursors = append(s.cursors[:i:i], s.cursors[i+1:]...)
			break
		}
	}
}

func (c *cursor) stopStream() {
	if c.stream != nil {
		c.stream.Close()
		c.stream = nil
	}
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
}

// Reading rows.

// known is how many rows have been read from the query.
func (c *cursor) known() int64 { return c.base + int64(len(c.buf)) }

// fill reads rows until row upTo is known or the query ends (upTo < 0:
// to the end).
func (c *cursor) fill(upTo int64) error {
	for !c.eof && (upTo < 0 || c.known() < upTo) {
		if c.err != nil {
			return c.err
		}
		if c.closed || c.stream == nil {
			return pgerr.New("24000", "cursor \"%s\" is not open", c.name)
		}
		if c.rec == nil || c.recRow >= int(c.rec.NumRows()) {
			rec, err := c.stream.Next()
			if err == io.EOF {
				c.eof = true
				c.stopStream()
				break
			}
			if err != nil {
				c.err = err
				return err
			}
			c.rec, c.recRow = rec, 0
			continue
		}
		r := rowRef{c.rec, c.recRow}
		c.recRow++
		if c.lockRows {
			keep, err := c.lockRow(r) // cursor_lock.go
			if err != nil {
				c.err = err
				return err
			}
			if !keep {
				continue
			}
		}
		c.buf = append(c.buf, r)
	}
	return nil
}

// row returns row i (1-based); ok is false past the last row.
func (c *cursor) row(i int64) (rowRef, bool, error) {
	if err := c.fill(i); err != nil {
		return rowRef{}, false, err
	}
	if i > c.known() {
		return rowRef{}, false, nil
	}
	if i <= c.base {
		return rowRef{}, false, pgerr.New(pgerr.InternalError, "cursor row %d was released", i)
	}
	return c.buf[i-c.base-1], true, nil
}

// run is the executor running the cursor's plan count rows (0: all) in
// one direction from its position; it returns how many rows it passed.
func (c *cursor) run(forward bool, count int64, emit func(rowRef) error) (int64, error) {
	var n int64
	for count == 0 || n < count {
		var r rowRef
		if forward {
			next, ok, err := c.row(c.exPos + 1)
			if err != nil {
				return n, err
			}
			if !ok {
				c.exPos = c.known() + 1
				break
			}
			c.exPos++
			r = next
		} else {
			if c.exPos <= 1 {
				c.exPos = 0
				break
			}
			c.exPos--
			prev, _, err := c.row(c.exPos)
			if err != nil {
				return n, err
			}
			r = prev
		}
		n++
		if emit != nil {
			if err := emit(r); err != nil {
				return n, err
			}
		}
	}
	if !c.scroll && c.exPos > c.base+1 {
		// Forward only: the rows passed are never read again.
		drop := min(c.exPos-1, c.known()) - c.base
		c.buf = append([]rowRef(nil), c.buf[drop:]...)
		c.base += drop
	}
	return n, nil
}

// runSelect is PostgreSQL's PortalRunSelect: count rows (sql.FetchAll:
// all) in one direction, keeping atStart, atEnd and portalPos.
func (c *cursor) runSelect(forward bool, count int64, emit func(rowRef) error) (int64, error) {
	if forward {
		move := !(c.atEnd || count <= 0)
		if !move {
			count = 0
		}
		if count == sql.FetchAll {
			count = 0
		}
		if !move {
			return 0, nil
		}
		n, err := c.run(true, count, emit)
		if err != nil {
			return n, err
		}
		if n > 0 {
			c.atStart = false
		}
		if count == 0 || n < count {
			c.atEnd = true
		}
		c.portalPos += n
		return n, nil
	}
	if !c.scroll {
		return 0, errForwardOnly()
	}
	move := !(c.atStart || count <= 0)
	if count == sql.FetchAll {
		count = 0
	}
	if !move {
		return 0, nil
	}
	n, err := c.run(false, count, emit)
	if err != nil {
		return n, err
	}
	if n > 0 && c.atEnd {
		c.atEnd = false
		c.portalPos++
	}
	if count == 0 || n < count {
		c.atStart = true
		c.portalPos = 0
	} else {
		c.portalPos -= n
	}
	return n, nil
}

// rewind is PostgreSQL's DoPortalRewind.
func (c *cursor) rewind() error {
	if c.atStart && !c.atEnd {
		return nil
	}
	if !c.scroll {
		return errForwardOnly()
	}
	c.exPos, c.portalPos, c.atStart, c.atEnd = 0, 0, true, false
	return nil
}

// runFetch is PostgreSQL's DoPortalRunFetch; emit nil is MOVE.
func (c *cursor) runFetch(dir sql.FetchDirection, count int64, emit func(rowRef) error) (int64, error) {
	switch {
	case dir == sql.FetchForward && count < 0:
		dir, count = sql.FetchBackward, -count
	case dir == sql.FetchBackward && count < 0:
		dir, count = sql.FetchForward, -count
	}
	switch dir {
	case sql.FetchAbsolute:
		switch {
		case count > 0:
			if c.portalPos == sql.FetchAll || count-1 < c.portalPos {
				if err := c.rewind(); err != nil {
					return 0, err
				}
				if count > 1 {
					if _, err := c.runSelect(true, count-1, nil); err != nil {
						return 0, err
					}
				}
			} else {
				pos := c.portalPos
				if c.atEnd {
					pos++ // one extra fetch if off the end
				}
				if count <= pos {
					if _, err := c.runSelect(false, pos-count+1, nil); err != nil {
						return 0, err
					}
				} else if count > pos+1 {
					if _, err := c.runSelect(true, count-pos-1, nil); err != nil {
						return 0, err
					}
				}
			}
			return c.runSelect(true, 1, emit)
		case count < 0:
			if _, err := c.runSelect(true, sql.FetchAll, nil); err != nil {
				return 0, err
			}
			if count < -1 {
				if _, err := c.runSelect(false, -count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(false, 1, emit)
		default:
			if err := c.rewind(); err != nil {
				return 0, err
			}
			return c.runSelect(true, 0, emit)
		}
	case sql.FetchRelative:
		switch {
		case count > 0:
			if count > 1 {
				if _, err := c.runSelect(true, count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(true, 1, emit)
		case count < 0:
			if count < -1 {
				if _, err := c.runSelect(false, -count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(false, 1, emit)
		}
		dir = sql.FetchForward // count 0: re-fetch the current row
	}
	forward := dir == sql.FetchForward
	if count == 0 {
		onRow := !c.atStart && !c.atEnd
		if emit == nil {
			// MOVE 0 says whether FETCH 0 would return a row.
			if onRow {
				return 1, nil
			}
			return 0, nil
		}
		if onRow {
			if _, err := c.runSelect(false, 1, nil); err != nil {
				return 0, err
			}
			count, forward = 1, true
		}
	}
	if !forward && count == sql.FetchAll && emit == nil {
		// MOVE BACKWARD ALL is a rewind.
		n := c.portalPos
		if n > 0 && !c.atEnd {
			n--
		}
		if err := c.rewind(); err != nil {
			return 0, err
		}
		return n, nil
	}
	return c.runSelect(forward, count, emit)
}

// freezeTables fixes the rows every table n reads (subquery plans and
// WITH queries included) to those it holds now. A scan takes its table's
// rows when it first runs, but a cursor's query runs on at later FETCHes,
// and must not see what the transaction wrote after DECLARE.
func freezeTables(n plan.Node) {
	seen := map[*plan.CTE]bool{}
	var node func(plan.Node) bool
	node = func(x plan.Node) bool {
		switch sc := x.(type) {
		case *plan.Scan:
			sc.Table = frozen(sc.Table)
		case *plan.CTEScan:
			if !seen[sc.CTE] {
				seen[sc.CTE] = true
				plan.WalkNodes(sc.CTE.Plan, node)
			}
		}
		for _, e := range x.Expressions() {
			plan.Walk(e, func(e plan.Expr) bool {
				if sq, ok := e.(*plan.Subquery); ok {
					plan.WalkNodes(sq.Plan, node)
				}
				return true
			})
		}
		return true
	}
	plan.WalkNodes(n, node)
}

// frozenTable is a table's rows at one moment.
type frozenTable struct {
	storage.Table
	recs []arrow.Record
}

func (t *frozenTable) Snapshot() []arrow.Record { return t.recs }

// frozenSegments keeps a segmented table's statistics as well.
type frozenSegments struct {
	frozenTable
	segs []storage.Segment
}

func (t *frozenSegments) Segments() []storage.Segment { return t.segs }

func frozen(t storage.Table) storage.Table {
	switch t.(type) {
	case *frozenTable, *frozenSegments:
		return t
	case storage.External:
		return t // read at scan time; a changed file fails the scan
	}
	if st, ok := t.(storage.Segmented); ok {
		// Both read the same state: nothing writes between them.
		return &frozenSegments{frozenTable{t, t.Snapshot()}, st.Segments()}
	}
	return &frozenTable{t, t.Snapshot()}
}

// addRowIDs makes a simply updatable cursor — one scan of a table, under
// filters, projections and LIMIT only (PostgreSQL's search_plan_tree) —
// also yield each row's RowID, as a last output column past the cursor's
// own, for WHERE CURRENT OF. It returns the table's name and the column,
// or "" when the cursor is not such a scan.
func addRowIDs(q *sql.Query) (storage.Table, int) {
	scan, projects, ok := sql.SimpleScan(q.Plan)
	if !ok || scan.RowID.ID != 0 {
		return nil, 0
	}
	col := plan.Column{ID: q.IDs.Next(), Name: "ctid", Type: types.Int8Type, NotNull: true}
	scan.RowID = col
	for i := len(projects) - 1; i >= 0; i-- {
		p := projects[i]
		out := plan.Column{ID: q.IDs.Next(), Name: "ctid", Type: types.Int8Type, NotNull: true}
		p.Exprs = append(p.Exprs, &plan.ColRef{ID: col.ID, T: col.Type, Name: col.Name})
		p.Cols = append(p.Cols, out)
		col = out
	}
	return scan.Table, len(q.Plan.Columns()) - 1
}

// currentOf is WHERE CURRENT OF's lookup (sql.CurrentOfLookup): the RowID
// of the row cursor name is on, with execCurrentOf's errors in its order.
func (s *session) currentOf(name string, t storage.Table) (storage.RowID, error) {
	p, ok := s.objs.Portal(name)
	if !ok {
		return 0, errNoCursor(name)
	}
	c, ok := p.(*cursor)
	if !ok {
		return 0, pgerr.New("24000", "cursor \"%s\" is not a SELECT query", name)
	}
	if !c.open {
		return 0, pgerr.New("24000", "cursor \"%s\" is held from a previous transaction", name)
	}
	if c.ridTable == nil || c.ridTable.Name() != t.Name() {
		return 0, pgerr.New("24000", "cursor \"%s\" is not a simply updatable scan of table \"%s\"", name, t.Name())
	}
	if c.atStart || c.atEnd {
		return 0, pgerr.New("24000", "cursor \"%s\" is not positioned on a row", name)
	}
	r, ok, err := c.row(c.exPos)
	if err != nil || !ok {
		return 0, pgerr.New("24000", "cursor \"%s\" is not positioned on a row", name)
	}
	return s.latestVersion(t, c.rowID(r)), nil // cursor_lock.go
}
