package storage

// Definition generations: a counter in each version that moves whenever a
// commit changes what names resolve to or what a relation looks like
// (tables, columns, constraints, indexes, views, sequences, schemas). A
// prepared statement's cached binding (engine/plancache.go) is valid only
// while it is unchanged; row changes leave it alone.

// changesDefinitions reports whether p changes any definition.
func (p *pending) changesDefinitions() bool {
	return len(p.created) > 0 || len(p.dropped) > 0 || len(p.views) > 0 || (p.cons != nil && len(p.cons.set) > 0) ||
		!p.idx.empty() || len(p.seqs) > 0 || len(p.altered) > 0 || len(p.rewrite) > 0 || len(p.schemas) > 0 || len(p.types) > 0 || len(p.authOps) > 0 || len(p.foreign) > 0 || len(p.funcs) > 0
}

// DefinitionGen is the definition generation of the version the
// transaction's current statement reads; ok is false when the transaction
// itself has changed a definition (its own catalog differs from every
// committed one).
func (t *Txn) DefinitionGen() (gen uint64, ok bool) {
	return t.version().defGen, !t.p.changesDefinitions()
}
