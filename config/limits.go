package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Connection limits with PostgreSQL's names, defaults and ranges.
func init() {
	intIn := func(lo, hi int, set func(*Config, int)) func(*Config, string) error {
		return func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < lo || n > hi {
				return fmt.Errorf("must be an integer from %d to %d", lo, hi)
			}
			set(c, n)
			return nil
		}
	}
	settings = append(settings, setting{
		key: "max_connections", flag: "max-connections", arg: "N",
		usage: "most concurrent client connections; more are refused with 53300 (as PostgreSQL's max_connections)",
		def:   func() string { return "100" },
		apply: intIn(1, 262143, func(c *Config, n int) { c.MaxConnections = n }),
	}, setting{
		key: "superuser_reserved_connections", flag: "superuser-reserved-connections", arg: "N",
		usage: "connection slots kept for superusers (as PostgreSQL's superuser_reserved_connections)",
		def:   func() string { return "3" },
		apply: intIn(0, 262143, func(c *Config, n int) { c.SuperuserReservedConnections = n }),
	}, setting{
		key: "authentication_timeout", flag: "authentication-timeout", arg: "DURATION",
		usage: "how long a client may take to authenticate (1s to 600s; bare number = seconds), as PostgreSQL's authentication_timeout",
		def:   func() string { return "1min" },
		apply: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			d, err := time.ParseDuration(strings.TrimSuffix(v, "in")) // "1min" reads as 1m
			if n, nerr := strconv.Atoi(v); nerr == nil {
				d, err = time.Duration(n)*time.Second, nil
			}
			if err != nil || d < time.Second || d > 600*time.Second {
				return errors.New("must be a duration from 1s to 600s such as 30s or 1min")
			}
			c.AuthenticationTimeout = d
			return nil
		},
	})
}
