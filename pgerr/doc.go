// Package pgerr is joind's error type: every error a client may see carries a
// PostgreSQL SQLSTATE from where it arises. Only package wire turns these into
// ErrorResponse messages. It is a leaf package: it imports nothing of joind.
package pgerr
