package oracle

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestStartSettingsAndStop(t *testing.T) {
	s, err := func() (*Server, error) {
		SkipIfUnavailable(t)
		return start()
	}()
	if err != nil {
		t.Fatal(err)
	}
	defer s.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgconn.Connect(ctx, s.DSN())
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Exec(ctx, `SELECT current_setting('server_version_num'), current_setting('TimeZone'),
		current_setting('DateStyle'), current_setting('lc_collate'), current_setting('server_encoding')`).ReadAll()
	c.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range res[0].Rows[0] {
		got = append(got, string(v))
	}
	if !strings.HasPrefix(got[0], "15") || strings.Join(got[1:], "|") != "UTC|ISO, MDY|C.UTF-8|UTF8" {
		t.Errorf("oracle settings = %q", got)
	}
	s.CreateDatabase(t, "oracle_test")
	s.CreateDatabase(t, "oracle_test") // idempotent
	dir, proc := s.dir, s.cmd.Process
	s.stop()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cluster dir %s not removed: %v", dir, err)
	}
	select {
	case <-s.done:
	default:
		t.Errorf("postmaster %d still running after stop", proc.Pid)
	}
}
