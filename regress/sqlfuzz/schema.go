package sqlfuzz

import (
	"math/rand"
	"strings"
)

// column of a generated table.
type column struct {
	name string
	t    colType
}

// table is a generated table and its rows (input text, nil = NULL).
type table struct {
	name string
	cols []column
	rows [][]*string
}

// schema is the tables one round of queries runs over.
type schema struct {
	tables []*table
}

// defaultPrefix names the tables of a single-worker run (fz_t0, ...);
// parallel workers use fz<i>_ so they can share a database.
const defaultPrefix = "fz_"

// genSchema makes 2-3 tables. Every table shares a few column types with
// the others (so joins and set operations find matching columns), and
// column names repeat across tables (so USING finds common names).
func genSchema(r *rand.Rand, k *Knobs, prefix string) *schema {
	s := &schema{}
	nt := 2 + r.Intn(2)
	shared := []colType{randColType(r), randColType(r)}
	for i := 0; i < nt; i++ {
		t := &table{name: prefix + "t" + itoa(i)}
		nc := 2 + r.Intn(4)
		for c := 0; c < nc; c++ {
			ct := randColType(r)
			if c < len(shared) && r.Intn(3) > 0 {
				ct = shared[c]
			}
			// names k0, k1 are shared-type keys; others are table-specific
			name := "c" + itoa(c)
			if c < len(shared) && ct == shared[c] {
				name = "k" + itoa(c)
			}
			t.cols = append(t.cols, column{name: uniqueName(t.cols, name), t: ct})
		}
		t.rows = genRows(r, k, t.cols)
		s.tables = append(s.tables, t)
	}
	return s
}

func uniqueName(cols []column, name string) string {
	for _, c := range cols {
		if c.name == name {
			return uniqueName(cols, name+"x")
		}
	}
	return name
}

// genRows makes NULL-heavy data with duplicates: each column draws from a
// small random subset of its type's pool.
func genRows(r *rand.Rand, k *Knobs, cols []column) [][]*string {
	n := []int{0, 1, 2, 5, 10, 20}[r.Intn(6)]
	type colGen struct {
		pool     []string
		nullRate int
	}
	gens := make([]colGen, len(cols))
	for i, c := range cols {
		pool := k.filterPool(c.t.id, dataPool(c.t))
		k := 1 + r.Intn(len(pool))
		sub := make([]string, 0, k)
		for _, j := range r.Perm(len(pool))[:k] {
			sub = append(sub, pool[j])
		}
		gens[i] = colGen{sub, []int{0, 10, 30, 60, 100}[r.Intn(5)]}
	}
	rows := make([][]*string, n)
	for i := range rows {
		row := make([]*string, len(cols))
		for c, g := range gens {
			if r.Intn(100) < g.nullRate {
				continue
			}
			v := g.pool[r.Intn(len(g.pool))]
			row[c] = &v
		}
		rows[i] = row
	}
	return rows
}

// ddl is the CREATE TABLE statement.
func (t *table) ddl() string {
	var cols []string
	for _, c := range t.cols {
		cols = append(cols, c.name+" "+c.t.sql())
	}
	return "CREATE TABLE " + t.name + " (" + strings.Join(cols, ", ") + ")"
}

// insert is one multi-row INSERT of all rows ("" when empty).
func (t *table) insert() string {
	if len(t.rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("INSERT INTO " + t.name + " VALUES ")
	for i, row := range t.rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j, v := range row {
			if j > 0 {
				b.WriteString(", ")
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.WriteString(quote(*v))
			}
		}
		b.WriteByte(')')
	}
	return b.String()
}

// setup is the SQL that (re)creates the schema: drops, creates, inserts.
func (s *schema) setup() []string {
	var out []string
	for _, t := range s.tables {
		out = append(out, "DROP TABLE IF EXISTS "+t.name, t.ddl())
		if ins := t.insert(); ins != "" {
			out = append(out, ins)
		}
	}
	return out
}

func (s *schema) clone() *schema {
	c := &schema{}
	for _, t := range s.tables {
		nt := &table{name: t.name, cols: t.cols, rows: append([][]*string(nil), t.rows...)}
		c.tables = append(c.tables, nt)
	}
	return c
}

// script is the schema as a pasteable SQL script.
func (s *schema) script() string {
	var b strings.Builder
	for _, stmt := range s.setup() {
		b.WriteString(stmt + ";\n")
	}
	return b.String()
}
