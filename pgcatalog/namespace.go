package pgcatalog

import (
	"strings"

	"github.com/joind/joind/storage"
)

// Namespaces (schemas) and the search path. pg_catalog, public and
// information_schema always exist; the session's temporary schema exists
// once it made a temporary table; the others are the catalog's
// (storage.SchemaCatalog). The search path is computed from the session's
// search_path as PostgreSQL's recomputeNamespacePath computes it, once per
// statement (a Snapshot): the binder resolves and creates relations with
// it, and current_schema(), current_schemas() and pg_table_is_visible()
// read it.

// NsKind tells the namespaces apart.
type NsKind uint8

const (
	NsUser    NsKind = iota // public or a created schema: holds stored relations
	NsTemp                  // the session's temporary schema
	NsCatalog               // pg_catalog
	NsInfo                  // information_schema
	NsToast                 // pg_toast and the temporary toast schema: hold nothing joind has
)

// Namespace is one schema.
type Namespace struct {
	Name  string
	OID   uint32
	Kind  NsKind
	ID    uint64 // a NsUser schema's storage id (storage.PublicSchemaID for public)
	Owner uint32 // the owning role
}

// Key is the storage key of relation name in the namespace (NsUser only).
func (n Namespace) Key(name string) string { return storage.TableKey(n.ID, name) }

func (s *Snapshot) schemaCatalog() storage.SchemaCatalog {
	sc, _ := s.cat.(storage.SchemaCatalog)
	return sc
}

var (
	nsPgCatalog = Namespace{Name: "pg_catalog", OID: OIDNamespacePgCatalog, Kind: NsCatalog, Owner: OIDBootstrapUser}
	nsPublic    = Namespace{Name: "public", OID: OIDNamespacePublic, Kind: NsUser, ID: storage.PublicSchemaID, Owner: OIDDatabaseOwnerRole}
	nsInfo      = Namespace{Name: "information_schema", OID: OIDNamespaceInfoSchema, Kind: NsInfo, Owner: OIDBootstrapUser}
	nsTemp      = Namespace{Name: TempSchema, OID: OIDNamespaceTemp, Kind: NsTemp, Owner: OIDBootstrapUser}
)

func (s *Snapshot) userNamespace(sc storage.Schema) Namespace {
	var owner uint32 = OIDBootstrapUser
	if sc.Owner != "" {
		if o, ok := s.RoleOID(sc.Owner); ok {
			owner = o
		}
	}
	return Namespace{Name: sc.Name, OID: sc.OID(), Kind: NsUser, ID: sc.ID, Owner: owner}
}

// Namespaces lists every schema in pg_namespace's order (by OID, the
// temporary ones where PostgreSQL's first session has them).
func (s *Snapshot) Namespaces() []Namespace {
	out := []Namespace{
		{Name: "pg_toast", OID: OIDNamespacePgToast, Kind: NsToast, Owner: OIDBootstrapUser},
		nsPgCatalog, nsPublic, nsInfo,
	}
	if _, has := s.TempTables(); has {
		out = append(out, nsTemp, Namespace{Name: TempToastSchema, OID: OIDNamespaceToastTemp, Kind: NsToast, Owner: OIDBootstrapUser})
	}
	if sc := s.schemaCatalog(); sc != nil {
		for _, x := range sc.Schemas() {
			out = append(out, s.userNamespace(x))
		}
	}
	return out
}

// NamespaceByName finds a schema by name; "pg_temp" is the session's
// temporary schema (if it has one).
func (s *Snapshot) NamespaceByName(name string) (Namespace, bool) {
	switch name {
	case "pg_catalog":
		return nsPgCatalog, true
	case "public":
		return nsPublic, true
	case "information_schema":
		return nsInfo, true
	case "pg_temp", TempSchema:
		_, has := s.TempTables()
		return nsTemp, has
	case "pg_toast", TempToastSchema:
		for _, n := range s.Namespaces() {
			if n.Name == name {
				return n, true
			}
		}
		return Namespace{}, false
	}
	if sc := s.schemaCatalog(); sc != nil {
		if x, ok := sc.LookupSchema(name); ok {
			return s.userNamespace(x), true
		}
	}
	return Namespace{}, false
}

// NamespaceByOID finds a schema by OID.
func (s *Snapshot) NamespaceByOID(oid uint32) (Namespace, bool) {
	for _, n := range s.Namespaces() {
		if n.OID == oid {
			return n, true
		}
	}
	return Namespace{}, false
}

// NamespaceOfKey is the schema and bare name of a stored relation's key.
func (s *Snapshot) NamespaceOfKey(key string) (Namespace, string) { return s.namespaceOfKey(key) }

func (s *Snapshot) namespaceOfKey(key string) (Namespace, string) {
	id, name := storage.SplitKey(key)
	if id == storage.PublicSchemaID {
		return nsPublic, name
	}
	if sc := s.schemaCatalog(); sc != nil {
		if x, ok := sc.SchemaByID(id); ok {
			return s.userNamespace(x), name
		}
	}
	return Namespace{Name: "?", Kind: NsUser, ID: id}, name
}

// SearchPath is the effective search path of a statement.
type SearchPath struct {
	// Schemas is the search order, the implicit schemas included: the
	// temporary schema first and pg_catalog next unless search_path lists
	// them (current_schemas(true)).
	Schemas []Namespace
	// Explicit are the existing schemas search_path lists, in order
	// (current_schemas(false); current_schema() is the first).
	Explicit []Namespace
	// Create is where an unqualified CREATE puts a relation: the first
	// schema search_path lists that exists; ok false when none does
	// ("no schema has been selected to create in"). CreateTemp is set when
	// that entry is pg_temp (made on demand, as in PostgreSQL).
	Create     Namespace
	CreateOK   bool
	CreateTemp bool
}

// SearchPath computes the session's search path (once per statement).
func (s *Snapshot) SearchPath() *SearchPath {
	s.pathOnce.Do(func() { s.path = s.searchPath(s.searchPathSetting()) })
	return s.path
}

// SearchPathText is the search path setting the statement resolves with.
func (s *Snapshot) SearchPathText() string { return s.searchPathSetting() }

func (s *Snapshot) searchPathSetting() string {
	if s.env.SearchPath != "" {
		return s.env.SearchPath
	}
	if s.env.Settings == nil {
		return `"$user", public`
	}
	return s.env.Settings.Get("search_path")
}

func (s *Snapshot) searchPath(setting string) *SearchPath {
	p := &SearchPath{}
	seen := map[uint32]bool{}
	for i, name := range SplitIdentList(setting) {
		if name == "$user" {
			name = s.user()
		}
		if name == "pg_temp" && i == 0 {
			// The temporary schema is made on demand when it is the
			// first entry: creation goes there even before it exists.
			p.CreateTemp, p.CreateOK = true, true
			p.Create = nsTemp
		}
		n, ok := s.NamespaceByName(name)
		if !ok || seen[n.OID] {
			continue
		}
		seen[n.OID] = true
		if !p.CreateOK {
			p.Create, p.CreateOK = n, true
		}
		p.Explicit = append(p.Explicit, n)
	}
	p.Schemas = p.Explicit
	if !seen[OIDNamespacePgCatalog] {
		p.Schemas = append([]Namespace{nsPgCatalog}, p.Schemas...)
	}
	if _, has := s.TempTables(); has && !seen[OIDNamespaceTemp] {
		p.Schemas = append([]Namespace{nsTemp}, p.Schemas...)
	}
	return p
}

// SplitIdentList splits a list of identifiers as PostgreSQL's
// SplitIdentifierString does for search_path: comma-separated, each
// either double-quoted ("" is a quote, case kept) or down-cased.
func SplitIdentList(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= len(s) {
			break
		}
		var b strings.Builder
		if s[i] == '"' {
			i++
			for i < len(s) {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
			for i < len(s) && s[i] != ',' {
				i++
			}
			out = append(out, b.String())
		} else {
			j := strings.IndexByte(s[i:], ',')
			if j < 0 {
				j = len(s) - i
			}
			out = append(out, strings.ToLower(strings.TrimSpace(s[i:i+j])))
			i += j
		}
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
	return out
}

// schemaArray is a list of schema names as a text-encoded name[].
func schemaArray(ns []Namespace) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range ns {
		if i > 0 {
			b.WriteByte(',')
		}
		// array_out's quoting: empty, NULL, or a special character.
		if n.Name == "" || strings.EqualFold(n.Name, "null") || strings.ContainsAny(n.Name, "{}\",\\ \t\n") {
			b.WriteString(`"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(n.Name) + `"`)
		} else {
			b.WriteString(n.Name)
		}
	}
	b.WriteByte('}')
	return b.String()
}

// TableVisible is pg_table_is_visible: the relation is in a schema of the
// search path and no relation of the same name comes before it there.
func (s *Snapshot) TableVisible(oid uint32) bool {
	r, ok := s.RelationByOID(oid)
	if !ok {
		return false
	}
	first, ok := s.RelationByName("", r.Name)
	return ok && first.OID == oid
}

// Database is the current database's name.
func (s *Snapshot) Database() string { return s.database() }
