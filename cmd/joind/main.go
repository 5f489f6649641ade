package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	_ "net/http/pprof" // handlers for the opt-in --pprof listener
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"syscall"
	"time"

	"github.com/joind/joind/activity"
	"github.com/joind/joind/config"
	"github.com/joind/joind/console"
	"github.com/joind/joind/engine"
	"github.com/joind/joind/metrics"
	"github.com/joind/joind/operators/hashtable"
	"github.com/joind/joind/stats"
	"github.com/joind/joind/wire"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version string

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// run is main without the process exit, so tests can drive it. It returns the
// exit code: 0 after a clean shutdown (or --help/--version), 2 for a bad
// setting, 1 for any other start-up or shutdown failure. Cancelling ctx acts
// like SIGTERM.
func run(ctx context.Context, args, env []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "tpch":
			return runTPCH(args[1:], stdout, stderr)
		case "check":
			return runCheck(args[1:], stdout, stderr)
		case "load":
			return runLoad(ctx, args[1:], env, stdout, stderr)
		}
	}
	cfg, err := config.Load(args, env)
	switch {
	case errors.Is(err, config.ErrHelp):
		fmt.Fprint(stdout, config.Usage())
		return 0
	case errors.Is(err, config.ErrVersion):
		fmt.Fprintf(stdout, "joind %s\n", versionString())
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "joind: %v\n", err)
		return 2
	}
	logger := newLogger(cfg, stderr)

	// Signals are caught from here on, before anything can be half-started.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	// The kernel choice is process-wide; setting it here (the engine also gets
	// HashKernel) makes the start-up log below state the kernel really used.
	hashtable.ForcePortable(cfg.HashKernel == "portable")
	goMemLimit := setServerMemory(cfg.ServerMemoryLimit, env)
	// Listen first: a taken port fails fast, before the data directory is touched.
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		fmt.Fprintf(stderr, "joind: cannot listen on %s: %v\n", cfg.Listen, err)
		return 1
	}
	backends := activity.NewRegistry(time.Now())
	statistics := stats.New(time.Now())
	eng, err := engine.New(engine.Options{
		Activity:         backends,
		Stats:            statistics,
		DataDir:          cfg.DataDir,
		Partitions:       cfg.Partitions,
		BatchSize:        cfg.BatchSize,
		MemoryLimit:      cfg.MemoryLimit,
		SegmentCache:     cfg.SegmentCache,
		HashKernel:       cfg.HashKernel,
		NoFsync:          cfg.NoFsync,
		CopyDirs:         cfg.CopyDirList(),
		Logger:           logger,
		PasswordVerifier: wire.SCRAMVerifier,
	})
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "joind: cannot open data directory %s: %v\n", cfg.DataDir, err)
		return 1
	}
	srvOpts, err := serverOptions(cfg)
	if err != nil {
		ln.Close()
		_ = eng.Close()
		fmt.Fprintf(stderr, "joind: %v\n", err)
		return 1
	}
	srvOpts.Activity = backends
	srvOpts.Auth.Lookup = eng.LookupRole
	srvOpts.IsSuperuser = eng.IsSuperuser
	if err := eng.BootstrapUsers(slices.Sorted(maps.Keys(cfg.Users)), cfg.Users); err != nil {
		ln.Close()
		_ = eng.Close()
		fmt.Fprintf(stderr, "joind: cannot create the --users roles: %v\n", err)
		return 1
	}
	srv := wire.NewServer(eng, srvOpts, logger)
	logger.Info("joind listening", "address", ln.Addr().String(), "version", versionString(),
		"kernel", hashtable.KernelName(), "data_dir", cfg.DataDir, "partitions", cfg.Partitions,
		"memory_limit", cfg.MemoryLimit, "server_memory_limit", cfg.ServerMemoryLimit, "segment_cache", cfg.SegmentCache, "go_memory_limit", goMemLimit, "config_file", cfg.ConfigFile)

	if cfg.MetricsListen != "" {
		mln, err := net.Listen("tcp", cfg.MetricsListen)
		if err != nil {
			logger.Warn("metrics listener not started", "address", cfg.MetricsListen, "err", err)
		} else {
			m := metrics.New(backends, statistics)
			statistics.Observer = m // before the server serves its first statement
			mux := http.NewServeMux()
			mux.Handle("/metrics", m.Handler())
			mux.Handle("/", console.New(console.Source{Activity: backends, Stats: statistics,
				Engine: eng, Storage: eng.StorageUsage}).Handler())
			logger.Info("metrics and console listening", "address", mln.Addr().String())
			go func() { _ = http.Serve(mln, mux) }()
			defer mln.Close()
		}
	}
	if cfg.Pprof != "" {
		// Debug only (off by default): profiles of a running server.
		pln, err := net.Listen("tcp", cfg.Pprof)
		if err != nil {
			logger.Warn("pprof listener not started", "address", cfg.Pprof, "err", err)
		} else {
			logger.Info("pprof listening", "address", pln.Addr().String())
			go func() { _ = http.Serve(pln, http.DefaultServeMux) }()
			defer pln.Close()
		}
	}

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(context.Background(), ln) }()

	code := 0
	select {
	case <-ctx.Done():
		logger.Info("shutting down: cancelling queries and disconnecting clients", "timeout", cfg.ShutdownTimeout)
	case err := <-serveErr:
		logger.Error("listener failed; shutting down", "err", err)
		code = 1
	}
	stop() // a second Ctrl-C now kills the process the default way

	shCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	if err := srv.Shutdown(shCtx); err != nil {
		logger.Warn("clients did not finish in time; their connections were closed", "err", err)
	}
	cancel()
	if err := eng.Close(); err != nil {
		logger.Error("closing the engine failed", "err", err)
		code = 1
	}
	logger.Info("joind stopped")
	return code
}

func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	switch cfg.LogLevel {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	default:
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// serverOptions turns the authentication and TLS settings into wire's.
func serverOptions(cfg *config.Config) (wire.ServerOptions, error) {
	opts := wire.ServerOptions{Auth: wire.AuthConfig{Users: cfg.Users}, RequireTLSRemote: cfg.TLSRequireRemote,
		MaxConnections: cfg.MaxConnections, StartupTimeout: cfg.AuthenticationTimeout,
		SuperuserReservedConnections: cfg.SuperuserReservedConnections}
	if opts.SuperuserReservedConnections == 0 {
		opts.SuperuserReservedConnections = -1 // none (wire's zero is its default)
	}
	for _, r := range cfg.HBA {
		opts.Auth.Rules = append(opts.Auth.Rules, wire.HBARule{Type: r.Type, Databases: r.Databases,
			Users: r.Users, Address: r.Address, Method: r.Method})
	}
	if cfg.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			return opts, fmt.Errorf("cannot load TLS certificate: %v", err)
		}
		opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	return opts, nil
}
