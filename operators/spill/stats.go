package spill

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// Kind is the kind of operator a Stats belongs to, for the process-wide
// figures the Prometheus metrics read (Usage).
type Kind uint8

const (
	KindOther Kind = iota
	KindHashJoin
	KindHashAggregate
	KindSort
	KindWindow
	KindSetOp
	KindDistinct
	KindTopN
	KindMaterialize
	numKinds
)

var kindNames = [numKinds]string{"other", "hash_join", "hash_aggregate", "sort", "window", "set_op", "distinct", "top_n", "materialize"}

func (k Kind) String() string { return kindNames[k] }

// usage is every operator's memory held now and bytes spilled so far, by
// kind, summed over the process's queries.
var usage [numKinds]struct{ inUse, spilled atomic.Int64 }

// OperatorUsage is one kind's process-wide figures.
type OperatorUsage struct {
	Kind    Kind
	InUse   int64 // bytes the operators of this kind hold now
	Spilled int64 // bytes they have written to spill files since start
}

// Usage lists every kind's figures, in Kind order.
func Usage() []OperatorUsage {
	out := make([]OperatorUsage, numKinds)
	for k := range out {
		out[k] = OperatorUsage{Kind: Kind(k), InUse: usage[k].inUse.Load(), Spilled: usage[k].spilled.Load()}
	}
	return out
}

// Stats counts one operator's memory and spill files, for EXPLAIN
// ANALYZE, and adds them to the process-wide Usage of its Kind. Its
// methods are safe for concurrent use (the operator's partitions share it).
type Stats struct {
	Kind        Kind // set when the operator is made
	files, rows atomic.Int64
	bytes       atomic.Int64 // spill files' bytes on disk
	held, peak  atomic.Int64 // memory the operator holds now, and its most
}

// Count adds a finished file.
func (s *Stats) Count(f *File) {
	s.files.Add(1)
	s.rows.Add(f.Rows())
	s.bytes.Add(f.DiskBytes())
	usage[s.Kind].spilled.Add(f.DiskBytes())
}

// Hold records that the operator's memory changed by delta bytes.
func (s *Stats) Hold(delta int64) {
	if delta == 0 {
		return
	}
	usage[s.Kind].inUse.Add(delta)
	now := s.held.Add(delta)
	for {
		p := s.peak.Load()
		if now <= p || s.peak.CompareAndSwap(p, now) {
			return
		}
	}
}

// Peak is the most memory the operator held at once.
func (s *Stats) Peak() int64 { return s.peak.Load() }

// SpilledBytes is the bytes of the spill files the operator wrote.
func (s *Stats) SpilledBytes() int64 { return s.bytes.Load() }

// Note is EXPLAIN ANALYZE's "(memory: peak N kB)" and "(spilled: N files,
// M rows, B kB)", each left out when there is nothing to tell.
func (s *Stats) Note() string {
	var notes []string
	if p := s.peak.Load(); p > 0 {
		notes = append(notes, "(memory: peak "+kilobytes(p)+")")
	}
	if f := s.files.Load(); f > 0 {
		notes = append(notes, fmt.Sprintf("(spilled: %d files, %d rows, %s)", f, s.rows.Load(), kilobytes(s.bytes.Load())))
	}
	return strings.Join(notes, " ")
}

// kilobytes rounds up, as PostgreSQL's EXPLAIN prints memory in kB.
func kilobytes(n int64) string { return strconv.FormatInt((n+1023)/1024, 10) + " kB" }
