package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaults(t *testing.T) {
	t.Chdir(t.TempDir()) // no ./joind.yaml here
	cfg, err := Load(nil, []string{})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Listen: "127.0.0.1:5433", DataDir: "./joind-data", Partitions: runtime.GOMAXPROCS(0),
		BatchSize: 4096, MemoryLimit: AutoMemoryLimit(), ServerMemoryLimit: AutoServerMemoryLimit(), SegmentCache: AutoSegmentCache(), HashKernel: "auto", LogLevel: "info", LogFormat: "text",
		ShutdownTimeout: 10 * time.Second, MaxConnections: 100, SuperuserReservedConnections: 3, AuthenticationTimeout: time.Minute,
	}
	if !reflect.DeepEqual(*cfg, want) {
		t.Fatalf("defaults\n got  %+v\n want %+v", *cfg, want)
	}
}

func TestPrecedence(t *testing.T) {
	t.Chdir(t.TempDir())
	file := writeFile(t, "c.yaml", `
listen: 127.0.0.1:6000
data_dir: /from/file
partitions: 3
batch_size: 1000
memory_limit: 1GiB
log_format: json
`)
	env := []string{
		"JOIND_PARTITIONS=5",    // beats the file
		"JOIND_BATCH_SIZE=2000", // beats the file, loses to the flag
		"JOIND_HASH_KERNEL=portable",
		"UNRELATED=1",
	}
	args := []string{"--config", file, "--batch-size", "3000", "--log-level=debug"}
	cfg, err := Load(args, env)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Listen: "127.0.0.1:6000", DataDir: "/from/file", Partitions: 5, BatchSize: 3000,
		MemoryLimit: 1 << 30, ServerMemoryLimit: AutoServerMemoryLimit(), SegmentCache: AutoSegmentCache(), HashKernel: "portable", LogLevel: "debug", LogFormat: "json",
		ShutdownTimeout: 10 * time.Second, MaxConnections: 100, SuperuserReservedConnections: 3, AuthenticationTimeout: time.Minute, ConfigFile: file,
	}
	if !reflect.DeepEqual(*cfg, want) {
		t.Fatalf("\n got  %+v\n want %+v", *cfg, want)
	}
}

func TestConfigFileFromEnvAndDefaultLocation(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := writeFile(t, "other.yaml", "partitions: 7\n")
	cfg, err := Load(nil, []string{"JOIND_CONFIG=" + file})
	if err != nil || cfg.Partitions != 7 || cfg.ConfigFile != file {
		t.Fatalf("JOIND_CONFIG: %+v, %v", cfg, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "joind.yaml"), []byte("partitions: 9\nshutdown_timeout: 1m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = Load(nil, []string{})
	if err != nil || cfg.Partitions != 9 || cfg.ShutdownTimeout != time.Minute || cfg.ConfigFile != "joind.yaml" {
		t.Fatalf("./joind.yaml: %+v, %v", cfg, err)
	}
	// --config wins over ./joind.yaml.
	cfg, err = Load([]string{"--config=" + file}, []string{})
	if err != nil || cfg.Partitions != 7 {
		t.Fatalf("--config: %+v, %v", cfg, err)
	}
}

func TestInvalidValues(t *testing.T) {
	t.Chdir(t.TempDir())
	cases := []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"--partitions", "x"}, nil,
			`invalid value "x" for partitions (JOIND_PARTITIONS / --partitions): must be an integer >= 1 (at most 65536)`},
		{nil, []string{"JOIND_PARTITIONS=0"},
			`invalid value "0" for partitions (JOIND_PARTITIONS / --partitions): must be an integer >= 1`},
		{[]string{"--listen", "localhost:99999"}, nil,
			`invalid value "localhost:99999" for listen (JOIND_LISTEN / --listen): the port must be a number from 0 to 65535`},
		{[]string{"--listen", "localhost"}, nil,
			`invalid value "localhost" for listen (JOIND_LISTEN / --listen): must be host:port`},
		{[]string{"--listen", "h:abc"}, nil, `for listen (JOIND_LISTEN / --listen): the port must be a number`},
		{[]string{"--hash-kernel", "avx9"}, nil,
			`invalid value "avx9" for hash_kernel (JOIND_HASH_KERNEL / --hash-kernel): must be one of auto, portable`},
		{[]string{"--memory-limit", "4 parsecs"}, nil,
			`invalid value "4 parsecs" for memory_limit (JOIND_MEMORY_LIMIT / --memory-limit): must be a size`},
		{[]string{"--memory-limit", "-1"}, nil, `for memory_limit`},
		{[]string{"--batch-size", "0"}, nil, `invalid value "0" for batch_size (JOIND_BATCH_SIZE / --batch-size): must be an integer from 1 to 1048576`},
		{[]string{"--log-level", "loud"}, nil, `for log_level (JOIND_LOG_LEVEL / --log-level): must be one of debug, info, warn, error`},
		{[]string{"--log-format", "xml"}, nil, `for log_format (JOIND_LOG_FORMAT / --log-format): must be one of text, json`},
		{[]string{"--shutdown-timeout", "soon"}, nil, `for shutdown_timeout (JOIND_SHUTDOWN_TIMEOUT / --shutdown-timeout): must be a duration`},
		{[]string{"--shutdown-timeout", "-5s"}, nil, `for shutdown_timeout`},
		{[]string{"--data-dir", ""}, nil, `invalid value "" for data_dir (JOIND_DATA_DIR / --data-dir): must not be empty`},
		{[]string{"--no-such-flag"}, nil, `unknown flag: --no-such-flag`},
		{[]string{"stray"}, nil, `unexpected argument "stray"`},
		{[]string{"--config", "/nonexistent/joind.yaml"}, nil, `cannot read config file: open /nonexistent/joind.yaml`},
	}
	for _, tc := range cases {
		env := tc.env
		if env == nil {
			env = []string{}
		}
		_, err := Load(tc.args, env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q, %q) = %v; want error containing %q", tc.args, tc.env, err, tc.want)
		}
	}
}

func TestInvalidConfigFiles(t *testing.T) {
	t.Chdir(t.TempDir())
	cases := []struct{ content, want string }{
		{"partitons: 4\n", `unknown setting "partitons" in config file`},
		{"log:\n  level: debug\n", `unknown setting "log.level"`},
		{"listen: [a, b]\n", `invalid value`},
		{"partitions: 2.5\n", `invalid value "2.5" for partitions`},
		{"memory_limit: lots\n", `invalid value "lots" for memory_limit`},
		{"listen: \"a\n", `is not valid YAML`},
	}
	for _, tc := range cases {
		file := writeFile(t, "bad.yaml", tc.content)
		_, err := Load([]string{"--config", file}, []string{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("file %q: %v; want error containing %q", tc.content, err, tc.want)
		}
	}
	// An unreadable file is an error, not a silent fallback to defaults.
	if os.Geteuid() != 0 {
		file := writeFile(t, "secret.yaml", "partitions: 2\n")
		_ = os.Chmod(file, 0)
		if _, err := Load([]string{"--config", file}, []string{}); err == nil || !strings.Contains(err.Error(), "cannot read config file") {
			t.Errorf("unreadable file: %v", err)
		}
	}
	dir := t.TempDir() // a directory is unreadable as a file, even for root
	if _, err := Load([]string{"--config", dir}, []string{}); err == nil || !strings.Contains(err.Error(), "cannot read config file") {
		t.Errorf("directory as config file: %v", err)
	}
}

func TestHelpAndVersion(t *testing.T) {
	if _, err := Load([]string{"--help"}, []string{}); !errors.Is(err, ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
	if _, err := Load([]string{"-h", "--partitions=bad"}, []string{}); !errors.Is(err, ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	if _, err := Load([]string{"--version"}, []string{}); !errors.Is(err, ErrVersion) {
		t.Fatalf("--version: %v", err)
	}
	u := Usage()
	for _, s := range settings {
		for _, want := range []string{"--" + s.flag, s.env(), "config key " + s.key} {
			if !strings.Contains(u, want) {
				t.Errorf("usage lacks %q", want)
			}
		}
	}
}

func TestParseSize(t *testing.T) {
	good := map[string]int64{
		"0": 0, "1024": 1024, "10B": 10, "1kB": 1024, "2KiB": 2048, "512MiB": 512 << 20, "512mb": 512 << 20,
		"4GiB": 4 << 30, "4G": 4 << 30, "1.5GiB": 3 << 29, "1TB": 1 << 40, " 8 MiB ": 8 << 20,
	}
	for in, want := range good {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "GiB", "-1", "1.2.3MiB", "4XB", "0.5B", "99999999TiB"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d; want an error", in, got)
		}
	}
}

func TestAuthAndTLSSettings(t *testing.T) {
	t.Chdir(t.TempDir())
	file := writeFile(t, "c.yaml", `
users: |
  alice:s3cret:with:colons
  bob:md5aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
hba: |
  hostssl all all 0.0.0.0/0 scram-sha-256   # remote: TLS + SCRAM
  host    d1,d2 bob samehost md5
  host    all all ::1/128 trust
tls_cert: /c.pem
tls_key: /k.pem
tls_require_remote: true
`)
	cfg, err := Load([]string{"--config", file}, []string{})
	if err != nil {
		t.Fatal(err)
	}
	wantUsers := map[string]string{"alice": "s3cret:with:colons", "bob": "md5aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}
	if !reflect.DeepEqual(cfg.Users, wantUsers) {
		t.Errorf("users = %v, want %v", cfg.Users, wantUsers)
	}
	wantHBA := []HBARule{
		{Type: "hostssl", Databases: []string{"all"}, Users: []string{"all"}, Address: "0.0.0.0/0", Method: "scram-sha-256"},
		{Type: "host", Databases: []string{"d1", "d2"}, Users: []string{"bob"}, Address: "samehost", Method: "md5"},
		{Type: "host", Databases: []string{"all"}, Users: []string{"all"}, Address: "::1/128", Method: "trust"},
	}
	if !reflect.DeepEqual(cfg.HBA, wantHBA) {
		t.Errorf("hba = %+v, want %+v", cfg.HBA, wantHBA)
	}
	if cfg.TLSCert != "/c.pem" || cfg.TLSKey != "/k.pem" || !cfg.TLSRequireRemote {
		t.Errorf("tls = %q %q %v", cfg.TLSCert, cfg.TLSKey, cfg.TLSRequireRemote)
	}
	// The environment takes single-line, separated forms.
	cfg, err = Load(nil, []string{"JOIND_USERS=a:x,b:y", "JOIND_HBA=host all a all md5; host all all all reject"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Users) != 2 || cfg.Users["b"] != "y" || len(cfg.HBA) != 2 || cfg.HBA[1].Method != "reject" {
		t.Errorf("env forms: users %v hba %+v", cfg.Users, cfg.HBA)
	}
	for _, bad := range [][]string{
		{"--hba", "host all all all kerberos"},
		{"--hba", "hostgss all all all md5"},
		{"--hba", "host all all 300.1.1.1 md5"},
		{"--hba", "host all all"},
		{"--users", "nopassword"},
		{"--users", "a:x,a:y"},
		{"--tls-cert", "/c.pem"},
		{"--tls-require-remote", "true"},
	} {
		if _, err := Load(bad, []string{}); err == nil {
			t.Errorf("Load(%q) accepted", bad)
		}
	}
}

func TestAutoMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	saved := memorySources
	defer func() { memorySources = saved }()
	memorySources.meminfo = write("meminfo", "MemFree: 10 kB\nMemTotal:  8388608 kB\n")
	memorySources.cgroupV2 = write("v2", "max\n")
	memorySources.cgroupV1 = dir + "/absent"
	if got := AutoMemoryLimit(); got != 2<<30 {
		t.Fatalf("8 GiB machine, no cgroup limit: %d, want 2 GiB", got)
	}
	if got, want := AutoServerMemoryLimit(), int64(8<<30)/100*70; got != want {
		t.Fatalf("8 GiB machine: server limit %d, want %d (70%%)", got, want)
	}
	memorySources.cgroupV2 = write("v2", "1073741824\n")
	if got := AutoMemoryLimit(); got != 256<<20 {
		t.Fatalf("1 GiB cgroup: %d, want 256 MiB", got)
	}
	memorySources.meminfo, memorySources.cgroupV2 = dir+"/absent", dir+"/absent"
	if got := AutoMemoryLimit(); got != 0 {
		t.Fatalf("nothing readable: %d, want 0 (unlimited)", got)
	}
	cfg, err := Load([]string{"--memory-limit", "auto", "--server-memory-limit", "auto"}, nil)
	if err != nil || cfg.MemoryLimit != 0 || cfg.ServerMemoryLimit != 0 {
		t.Fatalf("auto with nothing readable: %v, %v", cfg, err)
	}
	cfg, err = Load([]string{"--server-memory-limit", "3GiB"}, nil)
	if err != nil || cfg.ServerMemoryLimit != 3<<30 {
		t.Fatalf("--server-memory-limit 3GiB: %v, %v", cfg, err)
	}
}
