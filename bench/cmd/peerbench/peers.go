package main

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2" // also registers the "duckdb" driver
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// peer is one system under test.
type peer interface {
	Name() string
	Exec(ctx context.Context, sql string) error
	// Query runs sql and returns its rows in canonical form (see canonical).
	Query(ctx context.Context, sql string) ([]string, error)
	Version(ctx context.Context) string
	Close()
}

// canonical turns rows into sorted text lines, columns joined by "|", NULL as
// "NULL", so answers from different peers compare as plain strings.
func canonical(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, "|")
	}
	sort.Strings(out)
	return out
}

// pgPeer speaks the PostgreSQL wire protocol (PostgreSQL and joind). joind
// implements only the simple query protocol, so every statement uses it, for
// PostgreSQL too (same client path for both).
type pgPeer struct {
	name string
	dsn  string
	conn *pgx.Conn
}

func dialPG(ctx context.Context, name, dsn string) (*pgPeer, error) {
	p := &pgPeer{name: name, dsn: dsn}
	if err := p.connect(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *pgPeer) connect(ctx context.Context) error {
	cfg, err := pgx.ParseConfig(p.dsn)
	if err != nil {
		return err
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	// On timeout ask the server to cancel (so a 4-minute PostgreSQL query does
	// not keep burning a shared core), and give up on the socket a bit later.
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 5 * time.Second}
	}
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, cfg)
	if err != nil {
		return err
	}
	p.conn = conn
	return nil
}

// ensure reconnects after a timeout or protocol error closed the connection.
func (p *pgPeer) ensure(ctx context.Context) error {
	if p.conn != nil && !p.conn.IsClosed() {
		return nil
	}
	return p.connect(ctx)
}

func (p *pgPeer) Name() string { return p.name }

func (p *pgPeer) Exec(ctx context.Context, sql string) error {
	if err := p.ensure(ctx); err != nil {
		return err
	}
	_, err := p.conn.Exec(ctx, sql)
	return err
}

func (p *pgPeer) Query(ctx context.Context, sql string) ([]string, error) {
	if err := p.ensure(ctx); err != nil {
		return nil, err
	}
	rows, err := p.conn.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		// Simple protocol results are text: take PostgreSQL's own spelling.
		raw := rows.RawValues()
		r := make([]string, len(raw))
		for i, v := range raw {
			if v == nil {
				r[i] = "NULL"
			} else {
				r[i] = string(v)
			}
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return canonical(out), nil
}

func (p *pgPeer) Version(ctx context.Context) string {
	rows, err := p.Query(ctx, "SELECT version()")
	if err == nil && len(rows) == 1 {
		return rows[0]
	}
	// joind has no version() yet: take what the server said at startup.
	if p.conn != nil && !p.conn.IsClosed() {
		if v := p.conn.PgConn().ParameterStatus("server_version"); v != "" {
			return "server_version " + v + " (reported at startup)"
		}
	}
	return fmt.Sprintf("unknown (%v)", err)
}

func (p *pgPeer) Close() {
	if p.conn != nil {
		_ = p.conn.Close(context.Background())
	}
}

// duckPeer is DuckDB in-process, in memory, on one connection.
type duckPeer struct {
	db *sql.DB
}

func openDuck(ctx context.Context, threads int) (*duckPeer, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	// One connection: an in-memory database is per instance, and settings
	// such as threads then apply to every statement.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	if _, err := db.ExecContext(ctx, fmt.Sprintf("SET threads=%d", threads)); err != nil {
		db.Close()
		return nil, err
	}
	return &duckPeer{db: db}, nil
}

func (d *duckPeer) Name() string { return "duckdb" }

func (d *duckPeer) Exec(ctx context.Context, sql string) error {
	_, err := d.db.ExecContext(ctx, sql)
	return err
}

func (d *duckPeer) Query(ctx context.Context, sql string) ([]string, error) {
	rows, err := d.db.QueryContext(ctx, sql)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]string
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		r := make([]string, len(cols))
		for i, v := range vals {
			r[i] = duckText(v)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return canonical(out), nil
}

// duckText spells a DuckDB value the way PostgreSQL's text output would for
// the types these workloads return (integers, text).
func duckText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(x, 10)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int16:
		return strconv.FormatInt(int64(x), 10)
	case int8:
		return strconv.FormatInt(int64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case uint32:
		return strconv.FormatUint(uint64(x), 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case string:
		return x
	case []byte:
		return string(x)
	case bool:
		if x {
			return "t"
		}
		return "f"
	case duckdb.Decimal:
		return decimalText(x)
	case time.Time:
		// DuckDB's DATE arrives as midnight UTC: PostgreSQL prints a date.
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return x.Format("2006-01-02")
		}
		return x.Format("2006-01-02 15:04:05.999999")
	default:
		return fmt.Sprint(x)
	}
}

func (d *duckPeer) Version(ctx context.Context) string {
	rows, err := d.Query(ctx, "SELECT version()")
	if err != nil || len(rows) != 1 {
		return fmt.Sprintf("unknown (%v)", err)
	}
	return "DuckDB " + rows[0]
}

func (d *duckPeer) Close() { d.db.Close() }

// decimalText spells a DuckDB DECIMAL with all its scale digits, as
// PostgreSQL spells numeric (12.50, not the driver's 12.5).
func decimalText(d duckdb.Decimal) string {
	digits := new(big.Int).Abs(d.Value).String()
	sign := ""
	if d.Value.Sign() < 0 {
		sign = "-"
	}
	scale := int(d.Scale)
	if scale == 0 {
		return sign + digits
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
}
