package pgregress

import (
	"fmt"
	"os"
	"strings"
)

// Step is one thing a psql script asks the server to do.
type Step struct {
	Line int    // 1-based line where the statement starts
	SQL  string // the statement with psql variables interpolated, no trailing ';'
	// CopyData is the inline data of COPY ... FROM STDIN (up to "\.").
	CopyData *string
	// Gset names the variable prefix of a "\gset [prefix]" that ends the
	// statement: its one result row becomes psql variables.
	Gset *string
}

// Script reads a psql script the way psql does for pg_regress: SQL split
// at semicolons outside quotes, comments, dollar quotes, parentheses and
// BEGIN ATOMIC blocks; psql variables (:v, :'v', :"v") interpolated;
// \set, \unset, \getenv and \gset carried out; COPY FROM STDIN data read
// inline. Other meta-commands (\d, \pset, \echo ...) display things
// client-side and are dropped. Gsets are fed back by the runner through
// SetVar, so steps are produced lazily.
type Script struct {
	lines []string
	pos   int
	vars  map[string]string
	env   map[string]string
	// Skipped counts the meta-commands that were dropped.
	Skipped int
}

// NewScript parses src; env answers \getenv (falling back to the process
// environment).
func NewScript(src string, env map[string]string) *Script {
	return &Script{lines: strings.Split(src, "\n"), vars: map[string]string{}, env: env}
}

// SetVar sets a psql variable (used for \gset results).
func (s *Script) SetVar(name, value string) { s.vars[name] = value }

// Next returns the next step, or false at the end of the script.
func (s *Script) Next() (Step, bool) {
	var buf strings.Builder
	lx := lexState{}
	start := 0
	for s.pos < len(s.lines) {
		line := s.lines[s.pos]
		s.pos++
		if lx.outsideQuotes() && strings.HasPrefix(strings.TrimLeft(line, " \t"), `\`) {
			cmd, args := splitMeta(strings.TrimLeft(line, " \t"))
			switch cmd {
			case `\g`, `\gset`, `\gx`:
				if strings.TrimSpace(buf.String()) == "" {
					continue
				}
				st := Step{Line: start, SQL: strings.TrimSpace(buf.String())}
				if cmd == `\gset` {
					p := ""
					if len(args) > 0 {
						p = args[0]
					}
					st.Gset = &p
				}
				return st, true
			default:
				s.meta(cmd, args)
			}
			continue
		}
		if strings.TrimSpace(buf.String()) == "" {
			start = s.pos
		}
		// Feed the line through the lexer; a ';' at depth 0 ends a statement.
		i := 0
		for i < len(line) {
			if end, ok := lx.feed(line, &i, s.vars); ok {
				buf.WriteString(end)
				sql := strings.TrimSpace(buf.String())
				rest := line[i:]
				if strings.TrimSpace(rest) != "" {
					// Another statement starts on the same line: reparse it next time.
					s.pos--
					s.lines[s.pos] = rest
				}
				st := Step{Line: start, SQL: sql}
				if isCopyFromStdin(sql) {
					st.CopyData = s.readCopyData()
				}
				if sql == "" {
					buf.Reset()
					lx = lexState{}
					break
				}
				return st, true
			} else {
				buf.WriteString(end)
			}
		}
		buf.WriteByte('\n')
	}
	if sql := strings.TrimSpace(buf.String()); sql != "" {
		return Step{Line: start, SQL: sql}, true
	}
	return Step{}, false
}

func (s *Script) readCopyData() *string {
	var b strings.Builder
	for s.pos < len(s.lines) {
		line := s.lines[s.pos]
		s.pos++
		if line == `\.` {
			break
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	d := b.String()
	return &d
}

func isCopyFromStdin(sql string) bool {
	u := strings.ToUpper(strings.Join(strings.Fields(sql), " "))
	return strings.HasPrefix(u, "COPY ") && strings.Contains(u, " FROM STDIN")
}

// meta carries out the meta-commands that change what later SQL says.
func (s *Script) meta(cmd string, args []string) {
	switch cmd {
	case `\set`:
		if len(args) == 0 {
			s.Skipped++
			return
		}
		s.vars[args[0]] = strings.Join(s.expandArgs(args[1:]), "")
	case `\unset`:
		for _, a := range args {
			delete(s.vars, a)
		}
	case `\getenv`:
		if len(args) == 2 {
			v, ok := s.env[args[1]]
			if !ok {
				v = os.Getenv(args[1])
			}
			s.vars[args[0]] = v
		}
	default:
		s.Skipped++
	}
}

// expandArgs interpolates meta-command arguments: :v and :'v' give the
// variable's value; 'text' gives text.
func (s *Script) expandArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, ":'") && strings.HasSuffix(a, "'"):
			out = append(out, s.vars[a[2:len(a)-1]])
		case strings.HasPrefix(a, ":"):
			out = append(out, s.vars[a[1:]])
		case len(a) >= 2 && a[0] == '\'' && a[len(a)-1] == '\'':
			out = append(out, strings.ReplaceAll(a[1:len(a)-1], "''", "'"))
		default:
			out = append(out, a)
		}
	}
	return out
}

// splitMeta splits a meta-command line into the command and its
// arguments (single-quoted arguments kept whole).
func splitMeta(line string) (string, []string) {
	var fields []string
	var cur strings.Builder
	inQ := false
	flush := func() {
		if cur.Len() > 0 {
			fields = append(fields, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			inQ = !inQ
			cur.WriteByte(c)
		case !inQ && (c == ' ' || c == '\t'):
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	if len(fields) == 0 {
		return "", nil
	}
	return fields[0], fields[1:]
}

// lexState follows psql's lexer far enough to find statement ends.
type lexState struct {
	quote    byte   // ' or " while inside a quoted literal/identifier
	escape   bool   // inside E'...' (backslash escapes)
	dollar   string // the $tag$ while inside a dollar-quoted string
	block    int    // /* */ nesting
	paren    int
	begin    int // BEGIN ATOMIC ... END nesting
	lastWord string
	nonEmpty bool
}

// outsideQuotes reports whether a line starting now would be seen by psql
// as a new line of SQL or a meta-command (not inside a literal or comment).
func (l *lexState) outsideQuotes() bool {
	return l.quote == 0 && l.dollar == "" && l.block == 0
}

// feed consumes line from *i up to and including a statement-ending ';'
// (returning the text before it and true) or to the end of the line.
func (l *lexState) feed(line string, i *int, vars map[string]string) (string, bool) {
	var out strings.Builder
	for *i < len(line) {
		c := line[*i]
		switch {
		case l.block > 0:
			if strings.HasPrefix(line[*i:], "*/") {
				l.block--
				out.WriteString("*/")
				*i += 2
				continue
			}
			if strings.HasPrefix(line[*i:], "/*") {
				l.block++
				out.WriteString("/*")
				*i += 2
				continue
			}
		case l.dollar != "":
			if strings.HasPrefix(line[*i:], l.dollar) {
				out.WriteString(l.dollar)
				*i += len(l.dollar)
				l.dollar = ""
				continue
			}
		case l.quote != 0:
			if l.escape && c == '\\' && *i+1 < len(line) {
				out.WriteString(line[*i : *i+2])
				*i += 2
				continue
			}
			if c == l.quote {
				l.quote, l.escape = 0, false
			}
		default:
			switch {
			case strings.HasPrefix(line[*i:], "--"):
				out.WriteString(line[*i:])
				*i = len(line)
				return out.String(), false
			case strings.HasPrefix(line[*i:], "/*"):
				l.block++
				out.WriteString("/*")
				*i += 2
				continue
			case c == '\'' || c == '"':
				l.quote = c
				l.escape = c == '\'' && *i > 0 && (line[*i-1] == 'E' || line[*i-1] == 'e') && (*i < 2 || !isIdent(line[*i-2]))
				l.nonEmpty = true
			case c == '$':
				if tag, ok := dollarTag(line[*i:]); ok && (*i == 0 || !isIdent(line[*i-1])) {
					l.dollar = tag
					out.WriteString(tag)
					*i += len(tag)
					l.nonEmpty = true
					continue
				}
			case c == ':' && *i+1 < len(line) && line[*i+1] != ':' && (*i == 0 || line[*i-1] != ':'):
				if v, n, ok := interpolate(line[*i:], vars); ok {
					out.WriteString(v)
					*i += n
					l.nonEmpty = true
					continue
				}
			case c == '(':
				l.paren++
			case c == ')':
				if l.paren > 0 {
					l.paren--
				}
			case c == ';':
				if l.paren == 0 && l.begin == 0 {
					*i++
					*l = lexState{}
					return out.String(), true
				}
			case isIdent(c):
				j := *i
				for j < len(line) && isIdent(line[j]) {
					j++
				}
				w := strings.ToUpper(line[*i:j])
				if w == "ATOMIC" && l.lastWord == "BEGIN" {
					l.begin++
				} else if w == "END" && l.begin > 0 {
					l.begin--
				}
				l.lastWord = w
				l.nonEmpty = true
				out.WriteString(line[*i:j])
				*i = j
				continue
			}
			if c != ' ' && c != '\t' {
				l.nonEmpty = true
			}
		}
		out.WriteByte(c)
		*i++
	}
	return out.String(), false
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func dollarTag(s string) (string, bool) {
	for j := 1; j < len(s); j++ {
		if s[j] == '$' {
			return s[:j+1], true
		}
		if !isIdent(s[j]) || (j == 1 && s[j] >= '0' && s[j] <= '9') {
			return "", false
		}
	}
	return "", false
}

// interpolate expands :name, :'name' (a quoted literal) and :"name" (a
// quoted identifier) when name is a set variable, as psql does.
func interpolate(s string, vars map[string]string) (string, int, bool) {
	quote := byte(0)
	j := 1
	if s[1] == '\'' || s[1] == '"' {
		quote = s[1]
		j = 2
	}
	k := j
	for k < len(s) && isIdent(s[k]) {
		k++
	}
	if k == j {
		return "", 0, false
	}
	name := s[j:k]
	v, ok := vars[name]
	if !ok {
		return "", 0, false
	}
	switch quote {
	case '\'':
		if k >= len(s) || s[k] != '\'' {
			return "", 0, false
		}
		return "'" + strings.ReplaceAll(v, "'", "''") + "'", k + 1, true
	case '"':
		if k >= len(s) || s[k] != '"' {
			return "", 0, false
		}
		return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`, k + 1, true
	}
	return v, k, true
}

func (s Step) String() string { return fmt.Sprintf("line %d: %s", s.Line, s.SQL) }
