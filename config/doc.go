// Package config turns joind's command line, JOIND_* environment variables
// and optional YAML config file into a validated Config, so that a bad setting
// stops start-up with a message naming it instead of failing later.
//
// Precedence, lowest first: built-in defaults, the config file (--config,
// else JOIND_CONFIG, else ./joind.yaml when present), environment variables,
// flags. Every source is validated by the same code, so error messages are
// the same wherever a value came from.
//
// config is a leaf of joind: it must not import the engine, wire or any other
// joind package (cmd/joind maps Config onto their options).
package config
