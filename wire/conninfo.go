package wire

import "context"

// ConnInfo describes the connection a session serves. The context given to
// Engine.NewSession carries it (see ConnInfoFrom), so the engine can answer
// pg_backend_pid(), inet_client_addr() and the like without a new method on
// Engine. That context lives as long as the connection: it is cancelled when
// the connection ends or the server shuts down.
type ConnInfo struct {
	PID        uint32 // the process id sent in BackendKeyData
	RemoteAddr string // client address, host:port
}

type connInfoKey struct{}

// ConnInfoFrom returns the ConnInfo carried by ctx, if any.
func ConnInfoFrom(ctx context.Context) (ConnInfo, bool) {
	ci, ok := ctx.Value(connInfoKey{}).(ConnInfo)
	return ci, ok
}

// WithConnInfo returns ctx carrying ci (for engines' own tests).
func WithConnInfo(ctx context.Context, ci ConnInfo) context.Context {
	return context.WithValue(ctx, connInfoKey{}, ci)
}
