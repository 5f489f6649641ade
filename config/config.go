package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Config is joind's start-up configuration.
type Config struct {
	Listen      string // host:port of the PostgreSQL listener
	DataDir     string // where tables are stored
	Partitions  int    // probe/scan partitions per query (>= 1)
	BatchSize   int    // rows per batch
	MemoryLimit int64  // per-query memory budget in bytes; 0 = unlimited
	// ServerMemoryLimit is the memory budget all queries share, in bytes
	// (0 = unlimited); the Go runtime's soft limit is set from it too.
	ServerMemoryLimit int64
	// SegmentCache bounds the memory of stored tables' segments read
	// from their files, in bytes (0 = unbounded).
	SegmentCache    int64
	HashKernel      string        // "auto" or "portable"
	LogLevel        string        // "debug", "info", "warn" or "error"
	LogFormat       string        // "text" or "json"
	ShutdownTimeout time.Duration // grace period for clients at shutdown

	// Users maps user names to passwords (plain text or a PostgreSQL
	// md5/SCRAM-SHA-256 verifier). Empty: local clients are trusted.
	Users map[string]string
	// HBA are the client authentication rules, first match wins (empty:
	// the default of wire.AuthConfig).
	HBA []HBARule
	// TLSCert and TLSKey are PEM files; with both, clients may use TLS.
	TLSCert, TLSKey string
	// TLSRequireRemote refuses unencrypted connections from other machines.
	TLSRequireRemote bool
	// NoFsync (fsync = off) acknowledges commits without waiting for
	// fsync: for tests and benchmarks only, a crash may lose them.
	NoFsync bool
	// CopyDirs lists (comma-separated) the absolute directories
	// server-side COPY may read and write (COPY t FROM/TO '/path'); empty
	// disables server-side files. CopyDirList splits it.
	CopyDirs string
	// Pprof is the host:port of an opt-in net/http/pprof debug listener
	// (profiling a running server); empty = none.
	Pprof string
	// MetricsListen is the host:port of the opt-in Prometheus metrics
	// listener (/metrics); empty: off.
	MetricsListen string

	// MaxConnections, SuperuserReservedConnections and
	// AuthenticationTimeout are PostgreSQL's max_connections,
	// superuser_reserved_connections and authentication_timeout
	// (limits.go).
	MaxConnections               int
	SuperuserReservedConnections int
	AuthenticationTimeout        time.Duration

	// ConfigFile is the file that was read ("" if none).
	ConfigFile string
}

// ErrHelp and ErrVersion are returned by Load when --help or --version is
// given; the caller prints Usage() or its version and exits successfully.
var (
	ErrHelp    = errors.New("help requested")
	ErrVersion = errors.New("version requested")
)

// DefaultConfigFile is read when neither --config nor JOIND_CONFIG names a
// file, if it exists in the working directory.
const DefaultConfigFile = "joind.yaml"

const (
	envPrefix     = "JOIND_"
	configEnv     = "JOIND_CONFIG"
	maxBatchSize  = 1 << 20
	maxPartitions = 1 << 16
)

// setting describes one configuration value in all its spellings.
type setting struct {
	key   string // config-file key, also the name used in error messages
	flag  string
	arg   string // placeholder shown in --help
	usage string
	def   func() string
	// apply parses and stores v; its error says what a valid value is.
	apply func(c *Config, v string) error
}

func (s setting) env() string { return envPrefix + strings.ToUpper(s.key) }

var settings = []setting{
	{
		key: "listen", flag: "listen", arg: "HOST:PORT",
		usage: "address of the PostgreSQL listener (empty host = all interfaces)",
		def:   func() string { return "127.0.0.1:5433" },
		apply: func(c *Config, v string) error {
			_, port, err := net.SplitHostPort(v)
			if err != nil {
				return errors.New("must be host:port, e.g. 127.0.0.1:5433")
			}
			if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
				return errors.New("the port must be a number from 0 to 65535")
			}
			c.Listen = v
			return nil
		},
	},
	{
		key: "data_dir", flag: "data-dir", arg: "DIR",
		usage: "directory holding joind's tables (created if missing)",
		def:   func() string { return "./joind-data" },
		apply: func(c *Config, v string) error {
			if strings.TrimSpace(v) == "" {
				return errors.New("must not be empty")
			}
			c.DataDir = v
			return nil
		},
	},
	{
		key: "partitions", flag: "partitions", arg: "N",
		usage: "parallel partitions per query (default: usable CPUs)",
		def:   func() string { return strconv.Itoa(runtime.GOMAXPROCS(0)) },
		apply: func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 || n > maxPartitions {
				return fmt.Errorf("must be an integer >= 1 (at most %d)", maxPartitions)
			}
			c.Partitions = n
			return nil
		},
	},
	{
		key: "batch_size", flag: "batch-size", arg: "ROWS",
		usage: "rows per batch passed between operators",
		def:   func() string { return "4096" },
		apply: func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 || n > maxBatchSize {
				return fmt.Errorf("must be an integer from 1 to %d", maxBatchSize)
			}
			c.BatchSize = n
			return nil
		},
	},
	{
		key: "memory_limit", flag: "memory-limit", arg: "SIZE",
		usage: `memory limit of one query, e.g. 512MiB or 4GiB: past it sorts, hash aggregations and hash joins spill to <data_dir>/tmp; "auto" = a quarter of the machine's memory (the smaller of /proc/meminfo's MemTotal and the cgroup's memory.max); 0 = unlimited`,
		def:   func() string { return "auto" },
		apply: sizeOrAuto(AutoMemoryLimit, func(c *Config, n int64) { c.MemoryLimit = n }),
	},
	{
		key: "server_memory_limit", flag: "server-memory-limit", arg: "SIZE",
		usage: `memory limit of all queries together, e.g. 12GiB: past it a query's operators spill or fail with 53200 as past their own memory_limit, and the Go runtime's soft limit (GOMEMLIMIT, unless set in the environment) is set a quarter above it so freed memory goes back to the system; "auto" = 70% of the machine's memory (as memory_limit's "auto" reads it); 0 = unlimited`,
		def:   func() string { return "auto" },
		apply: sizeOrAuto(AutoServerMemoryLimit, func(c *Config, n int64) { c.ServerMemoryLimit = n }),
	},
	{
		key: "segment_cache", flag: "segment-cache", arg: "SIZE",
		usage: `memory for stored tables' segments read from their files, e.g. 4GiB: past it the least recently scanned are dropped and read again when next scanned; "auto" = 20% of the machine's memory (as memory_limit's "auto" reads it); 0 = unlimited (every segment read stays in memory)`,
		def:   func() string { return "auto" },
		apply: sizeOrAuto(AutoSegmentCache, func(c *Config, n int64) { c.SegmentCache = n }),
	},
	{
		key: "hash_kernel", flag: "hash-kernel", arg: "KIND",
		usage: `hash-join kernel: "auto" (fastest this CPU supports) or "portable" (pure Go)`,
		def:   func() string { return "auto" },
		apply: oneOf(func(c *Config, v string) { c.HashKernel = v }, "auto", "portable"),
	},
	{
		key: "log_level", flag: "log-level", arg: "LEVEL",
		usage: "least severe log level: debug, info, warn or error",
		def:   func() string { return "info" },
		apply: oneOf(func(c *Config, v string) { c.LogLevel = v }, "debug", "info", "warn", "error"),
	},
	{
		key: "log_format", flag: "log-format", arg: "FORMAT",
		usage: "log format: text or json",
		def:   func() string { return "text" },
		apply: oneOf(func(c *Config, v string) { c.LogFormat = v }, "text", "json"),
	},
	{
		key: "shutdown_timeout", flag: "shutdown-timeout", arg: "DURATION",
		usage: "how long shutdown waits for clients before closing them (e.g. 10s, 1m; bare number = seconds)",
		def:   func() string { return "10s" },
		apply: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			d, err := time.ParseDuration(v)
			if n, nerr := strconv.Atoi(v); nerr == nil {
				d, err = time.Duration(n)*time.Second, nil
			}
			if err != nil || d < 0 {
				return errors.New("must be a duration >= 0 such as 10s or 1m")
			}
			c.ShutdownTimeout = d
			return nil
		},
	},
	{
		key: "fsync", flag: "fsync", arg: "on|off",
		usage: "wait for fsync before acknowledging a commit (off: faster, a crash may lose acknowledged data)",
		def:   func() string { return "on" },
		apply: func(c *Config, v string) error {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "on", "true", "yes", "1":
				c.NoFsync = false
			case "off", "false", "no", "0":
				c.NoFsync = true
			default:
				return errors.New("must be on or off")
			}
			return nil
		},
	},
	{
		key: "copy_dirs", flag: "copy-dirs", arg: "DIRS",
		usage: "comma-separated absolute directories that server-side COPY files may be in, and s3://bucket/prefix entries Iceberg tables may be under (empty: none)",
		def:   func() string { return "" },
		apply: func(c *Config, v string) error {
			var dirs []string
			for _, d := range strings.Split(v, ",") {
				d = strings.TrimSpace(d)
				if d == "" {
					continue
				}
				if isObjectPrefix(d) {
					rest := d[len("s3://"):]
					if bucket, _, _ := strings.Cut(rest, "/"); bucket == "" || strings.Contains("/"+rest+"/", "/../") {
						return fmt.Errorf("%q names no bucket or has a .. segment", d)
					}
				} else if !strings.HasPrefix(d, "/") {
					return fmt.Errorf("%q is not an absolute path or an s3://bucket/prefix", d)
				}
				dirs = append(dirs, d)
			}
			c.CopyDirs = strings.Join(dirs, ",")
			return nil
		},
	},
}

func init() {
	settings = append(settings, setting{
		key: "pprof", flag: "pprof", arg: "HOST:PORT",
		usage: "address of a net/http/pprof debug listener (e.g. 127.0.0.1:6060); empty = off. Never expose it beyond localhost",
		def:   func() string { return "" },
		apply: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if v != "" {
				if _, _, err := net.SplitHostPort(v); err != nil {
					return errors.New("must be HOST:PORT such as 127.0.0.1:6060")
				}
			}
			c.Pprof = v
			return nil
		},
	}, setting{
		key: "metrics_listen", flag: "metrics-listen", arg: "HOST:PORT",
		usage: "address of the Prometheus metrics listener, serving /metrics (e.g. 127.0.0.1:9187); empty = off",
		def:   func() string { return "" },
		apply: func(c *Config, v string) error {
			v = strings.TrimSpace(v)
			if v != "" {
				if _, _, err := net.SplitHostPort(v); err != nil {
					return errors.New("must be HOST:PORT such as 127.0.0.1:9187")
				}
			}
			c.MetricsListen = v
			return nil
		},
	})
}

// CopyDirList is CopyDirs as a list.
func (c *Config) CopyDirList() []string {
	if c.CopyDirs == "" {
		return nil
	}
	return strings.Split(c.CopyDirs, ",")
}

// HBARule is one client authentication rule (a pg_hba.conf line):
// TYPE DATABASES USERS ADDRESS METHOD.
type HBARule struct {
	Type      string   // host, hostssl or hostnossl
	Databases []string // names or "all"
	Users     []string // names or "all"
	Address   string   // "all", "samehost", an IP address or a CIDR
	Method    string   // trust, reject, password, md5 or scram-sha-256
}

func init() {
	settings = append(settings,
		setting{
			key: "users", flag: "users", arg: "LIST",
			usage: "users and passwords, one \"name:password\" per line (or comma-separated); a password may be an md5 or SCRAM-SHA-256 verifier; empty = trust local clients",
			def:   func() string { return "" },
			apply: func(c *Config, v string) error {
				users, err := parseUsers(v)
				c.Users = users
				return err
			},
		},
		setting{
			key: "hba", flag: "hba", arg: "RULES",
			usage: "client authentication rules, one per line or ';'-separated: TYPE DATABASES USERS ADDRESS METHOD (e.g. \"hostssl all all 0.0.0.0/0 scram-sha-256\"); empty = scram-sha-256 for everyone when users are set",
			def:   func() string { return "" },
			apply: func(c *Config, v string) error {
				rules, err := parseHBA(v)
				c.HBA = rules
				return err
			},
		},
		setting{
			key: "tls_cert", flag: "tls-cert", arg: "FILE",
			usage: "PEM certificate (chain) for TLS; needs tls_key",
			def:   func() string { return "" },
			apply: func(c *Config, v string) error { c.TLSCert = strings.TrimSpace(v); return nil },
		},
		setting{
			key: "tls_key", flag: "tls-key", arg: "FILE",
			usage: "PEM private key for TLS; needs tls_cert",
			def:   func() string { return "" },
			apply: func(c *Config, v string) error { c.TLSKey = strings.TrimSpace(v); return nil },
		},
		setting{
			key: "tls_require_remote", flag: "tls-require-remote", arg: "BOOL",
			usage: "refuse connections from other machines that do not use TLS",
			def:   func() string { return "false" },
			apply: func(c *Config, v string) error {
				b, err := strconv.ParseBool(strings.TrimSpace(v))
				if err != nil {
					return errors.New("must be true or false")
				}
				c.TLSRequireRemote = b
				return nil
			},
		},
	)
}

// parseUsers reads "name:password" entries, one per line (or, on a single
// line, comma-separated).
func parseUsers(v string) (map[string]string, error) {
	users := map[string]string{}
	var entries []string
	if strings.Contains(v, "\n") {
		entries = strings.Split(v, "\n")
	} else {
		entries = strings.Split(v, ",")
	}
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		name, pw, ok := strings.Cut(e, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, errors.New(`each user must be written "name:password"`)
		}
		name = strings.TrimSpace(name)
		if _, dup := users[name]; dup {
			return nil, fmt.Errorf("user %q is listed twice", name)
		}
		users[name] = pw
	}
	if len(users) == 0 {
		return nil, nil
	}
	return users, nil
}

// parseHBA reads rules, one per line or ';'-separated; '#' starts a comment.
func parseHBA(v string) ([]HBARule, error) {
	var rules []HBARule
	for _, line := range strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == ';' }) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 5 {
			return nil, fmt.Errorf("rule %q: want TYPE DATABASES USERS ADDRESS METHOD", strings.TrimSpace(line))
		}
		r := HBARule{Type: strings.ToLower(f[0]), Databases: strings.Split(f[1], ","), Users: strings.Split(f[2], ","),
			Address: f[3], Method: strings.ToLower(f[4])}
		switch r.Type {
		case "host", "hostssl", "hostnossl":
		default:
			return nil, fmt.Errorf("rule %q: type must be host, hostssl or hostnossl", strings.TrimSpace(line))
		}
		switch r.Method {
		case "trust", "reject", "password", "md5", "scram-sha-256":
		default:
			return nil, fmt.Errorf("rule %q: method must be trust, reject, password, md5 or scram-sha-256", strings.TrimSpace(line))
		}
		if r.Address != "all" && r.Address != "samehost" {
			if _, _, err := net.ParseCIDR(r.Address); err != nil && net.ParseIP(r.Address) == nil {
				return nil, fmt.Errorf("rule %q: address must be all, samehost, an IP address or a CIDR", strings.TrimSpace(line))
			}
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func oneOf(set func(*Config, string), allowed ...string) func(*Config, string) error {
	return func(c *Config, v string) error {
		v = strings.ToLower(strings.TrimSpace(v))
		if !slices.Contains(allowed, v) {
			return fmt.Errorf("must be one of %s", strings.Join(allowed, ", "))
		}
		set(c, v)
		return nil
	}
}

// Load builds the configuration from, in increasing precedence: defaults, the
// YAML config file, JOIND_* environment variables (from env, "NAME=value"
// entries; nil means os.Environ()) and command-line flags (args, without the
// program name). The config file is the one named by --config, else by
// JOIND_CONFIG, else ./joind.yaml if that exists.
func Load(args []string, env []string) (*Config, error) {
	if env == nil {
		env = os.Environ()
	}
	envMap := make(map[string]string)
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, envPrefix) {
			envMap[k] = v
		}
	}

	fset := pflag.NewFlagSet("joind", pflag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.SortFlags = false
	for _, s := range settings {
		// Flags are strings so every source goes through the same validation
		// and error message.
		fset.String(s.flag, "", s.usage)
	}
	configFlag := fset.String("config", "", "YAML config file")
	help := fset.BoolP("help", "h", false, "print help")
	version := fset.Bool("version", false, "print version")
	if err := fset.Parse(args); err != nil {
		return nil, fmt.Errorf("%v (see joind --help)", err)
	}
	if *help {
		return nil, ErrHelp
	}
	if *version {
		return nil, ErrVersion
	}
	if fset.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (see joind --help)", fset.Arg(0))
	}

	v := viper.New()
	for _, s := range settings {
		v.SetDefault(s.key, s.def())
	}

	path, explicit := *configFlag, true
	if path == "" {
		path = envMap[configEnv]
	}
	if path == "" {
		path, explicit = DefaultConfigFile, false
	}
	fileSettings, err := readConfigFile(path, explicit)
	if err != nil {
		return nil, err
	}
	if fileSettings != nil {
		if err := v.MergeConfigMap(fileSettings); err != nil {
			return nil, fmt.Errorf("config file %s: %v", path, err)
		}
	} else {
		path = ""
	}

	for _, s := range settings {
		if val, ok := envMap[s.env()]; ok {
			v.Set(s.key, val)
		}
	}
	fset.Visit(func(f *pflag.Flag) {
		for _, s := range settings {
			if s.flag == f.Name {
				v.Set(s.key, f.Value.String())
			}
		}
	})

	cfg := &Config{ConfigFile: path}
	for _, s := range settings {
		raw, err := scalarString(v.Get(s.key))
		if err == nil {
			err = s.apply(cfg, raw)
		}
		if err != nil {
			return nil, fmt.Errorf("invalid value %q for %s (%s / --%s): %v", raw, s.key, s.env(), s.flag, err)
		}
	}
	if (cfg.TLSCert == "") != (cfg.TLSKey == "") {
		return nil, errors.New("tls_cert and tls_key must be given together")
	}
	if cfg.TLSRequireRemote && cfg.TLSCert == "" {
		return nil, errors.New("tls_require_remote needs tls_cert and tls_key")
	}
	if err := cfg.checkCopyDirs(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// readConfigFile returns the file's settings, or nil if path is the implicit
// default and does not exist. Unknown keys are errors: a misspelt setting
// must not be silently ignored.
func readConfigFile(path string, explicit bool) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("cannot read config file: %v", err)
	}
	fv := viper.New()
	fv.SetConfigType("yaml")
	if err := fv.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("config file %s is not valid YAML: %v", path, err)
	}
	all := fv.AllSettings()
	for _, key := range fv.AllKeys() {
		top, _, nested := strings.Cut(key, ".")
		if !slices.ContainsFunc(settings, func(s setting) bool { return s.key == top }) {
			return nil, fmt.Errorf("unknown setting %q in config file %s (known: %s)", key, path, knownKeys())
		}
		if nested {
			return nil, fmt.Errorf("invalid value for %s in config file %s: must be a single value, not a map", top, path)
		}
	}
	return all, nil
}

func knownKeys() string {
	keys := make([]string, len(settings))
	for i, s := range settings {
		keys[i] = s.key
	}
	return strings.Join(keys, ", ")
}

// scalarString renders a value from any source as the string its setting
// parses; YAML may hand us numbers or booleans.
func scalarString(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case int, int64, int32, uint, uint64, uint32, float64, float32, bool:
		return fmt.Sprint(v), nil
	case time.Duration:
		return v.String(), nil
	}
	return fmt.Sprint(v), errors.New("must be a single value")
}

// ParseSize parses a byte size: a plain number of bytes, or a number with a
// unit B, kB/KB/KiB/K, MB/MiB/M, GB/GiB/G or TB/TiB/T (case-insensitive).
// As in postgresql.conf, every unit is a power of 1024.
func ParseSize(s string) (int64, error) {
	bad := fmt.Errorf("must be a size such as 0, 1048576, 512MiB or 4GiB")
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	if num == "" {
		return 0, bad
	}
	var mult int64
	switch unit {
	case "", "b":
		mult = 1
	case "k", "kb", "kib":
		mult = 1 << 10
	case "m", "mb", "mib":
		mult = 1 << 20
	case "g", "gb", "gib":
		mult = 1 << 30
	case "t", "tb", "tib":
		mult = 1 << 40
	default:
		return 0, bad
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, bad
	}
	bytes := f * float64(mult)
	if bytes >= 1<<62 {
		return 0, errors.New("is too large")
	}
	if bytes != float64(int64(bytes)) {
		return 0, errors.New("must be a whole number of bytes")
	}
	return int64(bytes), nil
}

// Usage returns the --help text: every setting with its flag, environment
// variable, config-file key and default.
func Usage() string {
	var b strings.Builder
	b.WriteString(`joind is a PostgreSQL-compatible analytic SQL server.

Usage: joind [flags]

Each setting can be given, in increasing precedence, by its default, a key in
the YAML config file, a JOIND_* environment variable, or a flag.

Settings:
`)
	for _, s := range settings {
		fmt.Fprintf(&b, "  --%s %s\n", s.flag, s.arg)
		fmt.Fprintf(&b, "        %s\n", s.usage)
		fmt.Fprintf(&b, "        env %s, config key %s, default %q\n", s.env(), s.key, s.def())
	}
	fmt.Fprintf(&b, `
Other flags:
  --config FILE
        YAML config file (env %s). Without it, ./%s is read if it
        exists. Unknown keys in the file are errors.
  --version
        print the version and exit
  -h, --help
        print this help and exit

Commands:
  joind tpch generate|schema|query
        the TPC-H kit: generate dbgen's tables, print the schema or a
        query (joind tpch --help)

Example joind.yaml:
  listen: 0.0.0.0:5433
  data_dir: /var/lib/joind
  memory_limit: 4GiB
  server_memory_limit: 12GiB
`, configEnv, DefaultConfigFile)
	return b.String()
}
