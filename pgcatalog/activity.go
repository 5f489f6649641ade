package pgcatalog

import (
	"time"

	"github.com/joind/joind/types"
)

// pg_stat_activity and the backend functions, over the server's activity
// registry (Env.Activity; nil outside a server: no rows, and the signal
// functions find no backend).

func declarePgStatActivity() {
	declare(pc, "pg_stat_activity", 12222, 'v', func(s *Snapshot) []pgStatActivityRow {
		if s.env.Activity == nil {
			return nil
		}
		var out []pgStatActivityRow
		for _, r := range s.env.Activity.Rows() {
			r := r
			row := pgStatActivityRow{Datid: DatabaseOID(r.Database), Datname: r.Database, Pid: r.PID, Usesysid: OIDBootstrapUser,
				Usename: r.User, ApplicationName: r.ApplicationName, ClientPort: r.ClientPort,
				BackendStart: pgTime(r.BackendStart), XactStart: nullTime(r.XactStart), QueryStart: nullTime(r.QueryStart),
				StateChange: nullTime(r.StateChange), State: r.State, Query: r.Query, BackendType: "client backend"}
			if r.ClientAddr != "" {
				row.ClientAddr = &r.ClientAddr
			}
			out = append(out, row)
		}
		return out
	})
}

func nullTime(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	v := pgTime(t)
	return &v
}

// pgStatActivityRow is a row of pg_catalog.pg_stat_activity. client_addr
// is text (joind has no inet), backend_xid/backend_xmin are NULL (joind
// assigns no transaction ids: types.FirstNormalXid) and query_id is NULL (compute_query_id is off).
type pgStatActivityRow struct {
	Datid           uint32  `pg:"datid"`
	Datname         string  `pg:"datname" type:"name"`
	Pid             int32   `pg:"pid"`
	LeaderPid       *int32  `pg:"leader_pid"`
	Usesysid        uint32  `pg:"usesysid"`
	Usename         string  `pg:"usename" type:"name"`
	ApplicationName string  `pg:"application_name"`
	ClientAddr      *string `pg:"client_addr"`
	ClientHostname  *string `pg:"client_hostname"`
	ClientPort      int32   `pg:"client_port"`
	BackendStart    int64   `pg:"backend_start" type:"timestamptz"`
	XactStart       *int64  `pg:"xact_start" type:"timestamptz"`
	QueryStart      *int64  `pg:"query_start" type:"timestamptz"`
	StateChange     *int64  `pg:"state_change" type:"timestamptz"`
	WaitEventType   *string `pg:"wait_event_type"`
	WaitEvent       *string `pg:"wait_event"`
	State           string  `pg:"state"`
	BackendXid      *XID    `pg:"backend_xid"`
	BackendXmin     *XID    `pg:"backend_xmin"`
	QueryID         *int64  `pg:"query_id"`
	Query           string  `pg:"query"`
	BackendType     string  `pg:"backend_type"`
}

// The backend functions: the session's own process id, the server's
// start time, and signalling another backend (volatile: they act when
// the statement runs, never while it is planned).
var activityFuncs = []*Func{
	{Names: []string{"pg_backend_pid"}, Result: i4, Const: true,
		Eval: func(s *Snapshot, _ []types.Value) types.Value { return types.IntValue(int64(s.env.BackendPID)) }},
	{Names: []string{"pg_postmaster_start_time"}, Result: types.TimestampTZType, Const: true,
		Eval: func(s *Snapshot, _ []types.Value) types.Value {
			if s.env.Activity == nil {
				return types.NullValue
			}
			return types.IntValue(pgTime(s.env.Activity.Started()))
		}},
	{Names: []string{"pg_cancel_backend"}, MinArgs: 1, MaxArgs: 1, Args: []types.Type{i4}, Result: boolT, Volatile: true,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			return types.BoolValue(s.env.Activity != nil && s.env.Activity.Cancel(int32(v[0].I)))
		}},
	// pg_terminate_backend(pid, timeout): joind does not wait for the
	// backend to exit, so any timeout returns at once (PostgreSQL returns
	// true as soon as the signal is sent when timeout is 0, its default).
	{Names: []string{"pg_terminate_backend"}, MinArgs: 1, MaxArgs: 2, Args: []types.Type{i4, types.Int8Type}, Result: boolT, Volatile: true,
		Eval: func(s *Snapshot, v []types.Value) types.Value {
			return types.BoolValue(s.env.Activity != nil && s.env.Activity.Terminate(int32(v[0].I)))
		}},
}

func init() {
	for _, f := range activityFuncs {
		funcs = append(funcs, f)
		for _, n := range f.Names {
			funcByName[n] = append(funcByName[n], f)
		}
	}
}
