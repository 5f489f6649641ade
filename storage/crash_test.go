package storage

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The crash child: opens the data directory named by JOIND_STORAGE_CRASH
// and runs transactions forever, each deleting one key and appending
// another, printing "ack <deleted> <appended>" after each commit returns.
// The parent kills it with SIGKILL at a random moment.
func TestMain(m *testing.M) {
	if dir := os.Getenv("JOIND_STORAGE_CRASH"); dir != "" {
		crashChild(dir)
		return
	}
	os.Exit(m.Run())
}

func crashChild(dir string) {
	ctx := context.Background()
	db, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	tb, ok := db.Lookup("t")
	if !ok {
		fmt.Println("no table t")
		os.Exit(1)
	}
	next := int64(1 << 20)
	for _, k := range keysOf(tb) {
		next = max(next, k+1)
	}
	for i := 0; ; i++ {
		txn := db.Begin()
		tt, _ := txn.Lookup("t")
		keys := keysOf(tt)
		if len(keys) == 0 {
			fmt.Println("table empty")
			os.Exit(1)
		}
		victim := keys[(i*7919)%len(keys)]
		if err := txn.Delete(ctx, tt, idsWhere(tt, victim)); IsConcurrentUpdate(err) {
			// A compaction replaced the segment since the snapshot: run
			// again on a fresh one, as the engine does.
			txn.Rollback()
			i--
			continue
		} else if err != nil {
			fmt.Println("delete:", err)
			os.Exit(1)
		}
		if err := txn.Append(ctx, tt, intBatch(next)); err != nil {
			fmt.Println("append:", err)
			os.Exit(1)
		}
		if err := txn.Commit(ctx); err != nil {
			fmt.Println("commit:", err)
			os.Exit(1)
		}
		fmt.Printf("ack %d %d\n", victim, next)
		next++
		if i%5 == 4 {
			db.Vacuum(ctx, nil, false) // compaction racing the deletes' files
		}
	}
}

// Acknowledged deletes survive SIGKILL: after each kill the reopened table
// is the initial keys minus every acknowledged delete plus every
// acknowledged append, give or take the one commit in flight (which must
// be applied whole or not at all).
func TestDeletesSurviveSIGKILL(t *testing.T) {
	dir := t.TempDir()
	db := open(t, dir)
	var init []int64
	for i := int64(0); i < 3000; i++ {
		init = append(init, i)
	}
	mustCreate(t, db, "t", init...)
	db.Close()
	want := map[int64]bool{}
	for _, k := range init {
		want[k] = true
	}
	for cycle := 0; cycle < 10; cycle++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "JOIND_STORAGE_CRASH="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acks := make(chan string, 1<<16)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				acks <- sc.Text()
			}
			close(acks)
		}()
		// Kill at a random-ish moment after the child's first commit.
		first, ok := <-acks
		if !ok {
			cmd.Wait()
			t.Fatalf("cycle %d: the child acknowledged nothing", cycle)
		}
		time.Sleep(time.Duration(20+cycle*37) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		n := 0
		lines := []string{first}
		for line := range acks {
			lines = append(lines, line)
		}
		for _, line := range lines {
			f := strings.Fields(line)
			if len(f) != 3 || f[0] != "ack" {
				t.Fatalf("cycle %d: child said %q", cycle, line)
			}
			d, _ := strconv.ParseInt(f[1], 10, 64)
			a, _ := strconv.ParseInt(f[2], 10, 64)
			if !want[d] {
				t.Fatalf("cycle %d: child deleted %d, which should not exist", cycle, d)
			}
			delete(want, d)
			want[a] = true
			n++
		}
		if n == 0 {
			t.Fatalf("cycle %d: the child acknowledged nothing", cycle)
		}
		db := open(t, dir)
		tb, _ := db.Lookup("t")
		got := keysOf(tb)
		rows := tb.Stats().Rows
		db.Close()
		var exp []int64
		for k := range want {
			exp = append(exp, k)
		}
		slices.Sort(exp)
		slices.Sort(got)
		if rows != int64(len(got)) {
			t.Fatalf("cycle %d: Stats().Rows %d, %d rows scanned", cycle, rows, len(got))
		}
		if !slices.Equal(got, exp) {
			// One unacknowledged commit may have landed whole: one key
			// gone from exp and one new key above every acknowledged one.
			extra, missing := diff(got, exp), diff(exp, got)
			if len(extra) != 1 || len(missing) != 1 {
				t.Fatalf("cycle %d after %d acks: %d rows, want %d; extra %v, missing %v", cycle, n, len(got), len(exp), head(extra), head(missing))
			}
			delete(want, missing[0])
			want[extra[0]] = true
		}
		t.Logf("cycle %d: %d acknowledged commits, %d rows after restart", cycle, n, len(got))
	}
}

func diff(a, b []int64) []int64 {
	var out []int64
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}

func head(s []int64) []int64 { return s[:min(len(s), 5)] }
