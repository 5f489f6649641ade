package pgcatalog

import (
	"time"

	"github.com/joind/joind/activity"
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
			row.ClientAddr = inetKey(r.ClientAddr)
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

// pgStatActivityRow is a row of pg_catalog.pg_stat_activity.
// backend_xid/backend_xmin are NULL (joind assigns no transaction ids:
// types.FirstNormalXid) and
// query_id is NULL (compute_query_id is off).
type pgStatActivityRow struct {
	Datid           uint32  `pg:"datid"`
	Datname         string  `pg:"datname" type:"name"`
	Pid             int32   `pg:"pid"`
	LeaderPid       *int32  `pg:"leader_pid"`
	Usesysid        uint32  `pg:"usesysid"`
	Usename         string  `pg:"usename" type:"name"`
	ApplicationName string  `pg:"application_name"`
	ClientAddr      *string `pg:"client_addr" type:"inet"`
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

// inetKey is an address as an inet column's value; nil (NULL) for none
// or one inet_in refuses.
func inetKey(addr string) *string {
	if addr == "" {
		return nil
	}
	v, err := types.ParseText(addr, types.InetType)
	if err != nil {
		return nil
	}
	return &v.S
}

// ownBackend is the session's own row of the activity registry.
func ownBackend(s *Snapshot) (activity.Row, bool) {
	if s.env.Activity != nil {
		for _, r := range s.env.Activity.Rows() {
			if r.PID == s.env.BackendPID {
				return r, true
			}
		}
	}
	return activity.Row{}, false
}

// connFunc is inet_client_addr and its kin: a field of the session's
// connection, NULL over a Unix socket or outside a server.
func connFunc(name string, result types.Type, field func(r activity.Row) types.Value) *Func {
	return &Func{Names: []string{name}, Result: result, Const: true,
		Eval: func(s *Snapshot, _ []types.Value) types.Value {
			r, ok := ownBackend(s)
			if !ok {
				return types.NullValue
			}
			return field(r)
		}}
}

func addrValue(addr string) types.Value {
	if k := inetKey(addr); k != nil {
		return types.Value{S: *k}
	}
	return types.NullValue
}

func portValue(addr string, port int32) types.Value {
	if addr == "" || port < 0 {
		return types.NullValue
	}
	return types.IntValue(int64(port))
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
	activityFuncs = append(activityFuncs,
		connFunc("inet_client_addr", types.InetType, func(r activity.Row) types.Value { return addrValue(r.ClientAddr) }),
		connFunc("inet_client_port", i4, func(r activity.Row) types.Value { return portValue(r.ClientAddr, r.ClientPort) }),
		connFunc("inet_server_addr", types.InetType, func(r activity.Row) types.Value { return addrValue(r.ServerAddr) }),
		connFunc("inet_server_port", i4, func(r activity.Row) types.Value { return portValue(r.ServerAddr, r.ServerPort) }))
	for _, f := range activityFuncs {
		funcs = append(funcs, f)
		for _, n := range f.Names {
			funcByName[n] = append(funcByName[n], f)
		}
	}
}
