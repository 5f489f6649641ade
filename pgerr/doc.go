// Package pgerr is joind's error type: every error a client may see carries a
// PostgreSQL SQLSTATE from where it arises. Only package wire turns these into
// ErrorResponse messages. It is a leaf package: it imports nothing of joind.
//
// It also holds CheckUTF8 (encoding.go), PostgreSQL's check of text arriving
// from a client, here because both wire (query strings) and engine
// (parameters, COPY data) apply it and pgerr is the package they share.
package pgerr
