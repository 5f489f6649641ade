package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTPCHCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	run1 := func(args ...string) int {
		out.Reset()
		errOut.Reset()
		return run(context.Background(), append([]string{"tpch"}, args...), nil, &out, &errOut)
	}
	if code := run1("generate", "--sf", "0.01", "--dir", dir, "--tables", "nation,region"); code != 0 {
		t.Fatalf("generate: code %d: %s", code, errOut.String())
	}
	nation, err := os.ReadFile(filepath.Join(dir, "nation.tbl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(nation), "0|ALGERIA|0| haggle. carefully final deposits detect slyly agai\n") || bytes.Count(nation, []byte("\n")) != 25 {
		t.Errorf("nation.tbl:\n%s", nation)
	}
	if _, err := os.Stat(filepath.Join(dir, "lineitem.tbl")); err == nil {
		t.Error("--tables nation,region also wrote lineitem.tbl")
	}
	if code := run1("table", "region", "--sf", "0.01"); code != 0 || !strings.HasPrefix(out.String(), "0|AFRICA|lar deposits.") || strings.Count(out.String(), "\n") != 5 {
		t.Errorf("table region: code %d: %s", code, out.String())
	}
	if code := run1("schema"); code != 0 || !strings.Contains(out.String(), "create table partsupp (") {
		t.Errorf("schema: code %d: %s", code, out.String())
	}
	if code := run1("query", "11", "--sf", "0.01"); code != 0 || !strings.Contains(out.String(), "* 0.0100000000") {
		t.Errorf("query 11: code %d: %s", code, out.String())
	}
	if code := run1("--help"); code != 0 || !strings.Contains(out.String(), "joind tpch generate --sf N --dir D") {
		t.Errorf("--help: code %d: %s", code, out.String())
	}
	for _, bad := range [][]string{
		{},
		{"frobnicate"},
		{"generate", "--sf", "0.01"},
		{"generate", "--sf", "1.5", "--dir", dir},
		{"generate", "--dir", dir, "--tables", "lineitems"},
		{"table"},
		{"table", "lineitems"},
		{"query", "23"},
		{"query"},
		{"schema", "extra"},
	} {
		if code := run1(bad...); code == 0 || errOut.Len() == 0 {
			t.Errorf("joind tpch %v: code %d, stderr %q", bad, code, errOut.String())
		}
	}
}
