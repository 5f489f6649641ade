package engine

import "github.com/joind/joind/storage"

// StorageUsage is the data directory's footprint and compaction activity,
// for the operator's console (package console).
func (e *Engine) StorageUsage() storage.Usage { return e.catalog.Usage() }
