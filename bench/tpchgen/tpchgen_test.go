package tpchgen

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pingcap/go-tpc/tpch/dbgen"
)

// prefixOrders is how many orders (with their lineitems) are compared.
const prefixOrders = 100000

// errEnough stops go-tpc's generation after the prefix.
var errEnough = errors.New("enough rows")

// joindTable reads the rows joind generated for one table.
type joindTable struct {
	name  string
	lines *bufio.Scanner
	n     int
}

func newTable(name string, r io.Reader) *joindTable {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	return &joindTable{name: name, lines: sc}
}

// streamTable streams `joind tpch table name --sf 1` (orders and lineitem:
// only a prefix is read, then the process is killed).
func streamTable(t *testing.T, bin, name string) *joindTable {
	cmd := exec.Command(bin, "tpch", "table", name, "--sf", "1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return newTable(name, out)
}

// generatedTables runs `joind tpch generate --sf 1` for the smaller tables
// and opens their files.
func generatedTables(t *testing.T, bin string, names []string) map[string]*joindTable {
	dir := t.TempDir()
	cmd := exec.Command(bin, "tpch", "generate", "--sf", "1", "--dir", dir, "--tables", strings.Join(names, ","))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("joind tpch generate: %v\n%s", err, out)
	}
	out := map[string]*joindTable{}
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, name+".tbl"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		out[name] = newTable(name, f)
	}
	return out
}

// check compares go-tpc's next row with joind's.
func (jt *joindTable) check(want string) error {
	jt.n++
	if !jt.lines.Scan() {
		return fmt.Errorf("%s: joind ended after %d rows (%v); go-tpc has %q", jt.name, jt.n-1, jt.lines.Err(), want)
	}
	if got := jt.lines.Text(); got != want {
		return fmt.Errorf("%s row %d:\njoind  %q\ngo-tpc %q", jt.name, jt.n, got, want)
	}
	return nil
}

// finish checks joind has no more rows than go-tpc.
func (jt *joindTable) finish(t *testing.T) {
	if jt.lines.Scan() {
		t.Errorf("%s: joind has more than go-tpc's %d rows: %q", jt.name, jt.n, jt.lines.Text())
	}
	t.Logf("%s: %d rows identical", jt.name, jt.n)
}

// loader adapts a row check to go-tpc's Loader.
type loader func(item interface{}) error

func (l loader) Load(item interface{}) error { return l(item) }
func (l loader) Flush() error                { return nil }

func buildJoind(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "joind")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/joind")
	cmd.Dir = ".." + string(filepath.Separator) + ".." // the main module
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/joind: %v\n%s", err, out)
	}
	return bin
}

func TestGeneratorMatchesGoTPC(t *testing.T) {
	bin := buildJoind(t)
	m := dbgen.FmtMoney
	small := []string{"nation", "region", "part", "partsupp", "supplier", "customer"}
	tables := generatedTables(t, bin, small)
	for _, name := range []string{"orders", "lineitem"} {
		tables[name] = streamTable(t, bin, name)
	}
	orders := 0
	loaders := map[dbgen.Table]dbgen.Loader{
		dbgen.TNation: loader(func(it interface{}) error {
			n := it.(*dbgen.Nation)
			return tables["nation"].check(fmt.Sprintf("%d|%s|%d|%s", n.Code, n.Text, n.Join, n.Comment))
		}),
		dbgen.TRegion: loader(func(it interface{}) error {
			r := it.(*dbgen.Region)
			return tables["region"].check(fmt.Sprintf("%d|%s|%s", r.Code, r.Text, r.Comment))
		}),
		dbgen.TPartPsupp: loader(func(it interface{}) error {
			p := it.(*dbgen.Part)
			if err := tables["part"].check(fmt.Sprintf("%d|%s|%s|%s|%s|%d|%s|%s|%s", p.PartKey, p.Name, p.Mfgr, p.Brand, p.Type, p.Size, p.Container, m(p.RetailPrice), p.Comment)); err != nil {
				return err
			}
			for _, s := range p.S {
				if err := tables["partsupp"].check(fmt.Sprintf("%d|%d|%d|%s|%s", s.PartKey, s.SuppKey, s.Qty, m(s.SCost), s.Comment)); err != nil {
					return err
				}
			}
			return nil
		}),
		dbgen.TSupp: loader(func(it interface{}) error {
			s := it.(*dbgen.Supp)
			return tables["supplier"].check(fmt.Sprintf("%d|%s|%s|%d|%s|%s|%s", s.SuppKey, s.Name, s.Address, s.NationCode, s.Phone, m(s.Acctbal), s.Comment))
		}),
		dbgen.TCust: loader(func(it interface{}) error {
			c := it.(*dbgen.Cust)
			return tables["customer"].check(fmt.Sprintf("%d|%s|%s|%d|%s|%s|%s|%s", c.CustKey, c.Name, c.Address, c.NationCode, c.Phone, m(c.Acctbal), c.MktSegment, c.Comment))
		}),
		dbgen.TOrderLine: loader(func(it interface{}) error {
			if orders == prefixOrders {
				return errEnough
			}
			orders++
			o := it.(*dbgen.Order)
			if err := tables["orders"].check(fmt.Sprintf("%d|%d|%c|%s|%s|%s|%s|%d|%s", o.OKey, o.CustKey, o.Status, m(o.TotalPrice), o.Date, o.OrderPriority, o.Clerk, o.ShipPriority, o.Comment)); err != nil {
				return err
			}
			for _, l := range o.Lines {
				if err := tables["lineitem"].check(fmt.Sprintf("%d|%d|%d|%d|%d|%s|%s|%s|%c|%c|%s|%s|%s|%s|%s|%s", l.OKey, l.PartKey, l.SuppKey, l.LCnt, l.Quantity, m(l.EPrice), m(l.Discount), m(l.Tax), l.RFlag, l.LStatus, l.SDate, l.CDate, l.RDate, l.ShipInstruct, l.ShipMode, l.Comment)); err != nil {
					return err
				}
			}
			return nil
		}),
	}
	// go-tpc's generator is global state: initialised once, tables in
	// dbgen's order (each table's rows depend only on its own streams).
	dbgen.InitDbGen(1)
	err := dbgen.DbGen(loaders, []dbgen.Table{dbgen.TNation, dbgen.TRegion, dbgen.TPartPsupp, dbgen.TSupp, dbgen.TCust, dbgen.TOrderLine})
	// go-tpc wraps the loader's error with %v, not %w.
	if err != nil && !strings.HasSuffix(err.Error(), errEnough.Error()) {
		t.Fatal(err)
	}
	if orders != prefixOrders {
		t.Fatalf("compared %d orders, want %d", orders, prefixOrders)
	}
	for _, name := range small {
		tables[name].finish(t)
	}
	t.Logf("orders and lineitem: the first %d orders' rows identical (%d orders, %d lineitems)", prefixOrders, tables["orders"].n, tables["lineitem"].n)
}
