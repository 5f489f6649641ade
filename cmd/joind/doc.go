// Command joind is the joind server: a PostgreSQL-wire-compatible analytic
// SQL server. It loads the configuration (package config: defaults < YAML
// file < JOIND_* environment < flags), listens, opens the engine on the data
// directory and serves the PostgreSQL protocol (package wire) until SIGINT or
// SIGTERM, when running queries are cancelled and clients are told 57P01.
// See `joind --help` for its settings.
//
// It is the only package that wires the layers together; nothing imports it.
package main
