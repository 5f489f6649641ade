package distsim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A side is the rows of one input of a fragment held by one worker: int8
// columns, nil for NULL.
type side [][]*int64

// worker is one process's Flight service: the partitions put to it, by
// job and side name.
type worker struct {
	flight.BaseFlightServer
	mu    sync.Mutex
	sides map[string]side
}

func newWorker() *worker { return &worker{sides: map[string]side{}} }

func sideKey(job, name string) string { return job + "/" + name }

// DoPut stores the batches of one side; the descriptor's path is [job, side].
func (w *worker) DoPut(stream flight.FlightService_DoPutServer) error {
	rd, err := flight.NewRecordReader(stream)
	if err != nil {
		return err
	}
	defer rd.Release()
	path := rd.LatestFlightDescriptor().GetPath()
	if len(path) != 2 {
		return fmt.Errorf("DoPut: descriptor path %v, want [job side]", path)
	}
	var rows side
	for rd.Next() {
		rows = append(rows, recordRows(rd.RecordBatch())...)
	}
	if err := rd.Err(); err != nil && err != io.EOF {
		return err
	}
	w.mu.Lock()
	w.sides[sideKey(path[0], path[1])] = rows
	w.mu.Unlock()
	return nil
}

// factsRequest asks for the facts of column col of a side.
type factsRequest struct {
	Job, Side string
	Col       int
}

// Facts are what a null-aware anti join needs to know about the whole
// build side, summed over the workers by the coordinator.
type Facts struct {
	Rows, NullKeys int64
}

// DoAction "facts": a side's row count and NULL count in one column.
func (w *worker) DoAction(a *flight.Action, stream flight.FlightService_DoActionServer) error {
	if a.Type != "facts" {
		return fmt.Errorf("unknown action %q", a.Type)
	}
	var req factsRequest
	if err := json.Unmarshal(a.Body, &req); err != nil {
		return err
	}
	w.mu.Lock()
	rows := w.sides[sideKey(req.Job, req.Side)]
	w.mu.Unlock()
	f := Facts{Rows: int64(len(rows))}
	for _, r := range rows {
		if r[req.Col] == nil {
			f.NullKeys++
		}
	}
	body, _ := json.Marshal(f)
	return stream.Send(&flight.Result{Body: body})
}

// Fragment is what a DoGet ticket asks a worker to compute over its
// partitions of a job's "probe" and "build" sides.
type Fragment struct {
	Job string
	// Op: "anti" (NOT IN: probe rows whose key no build row's key equals
	// under three-valued logic), "semi" (IN), "inner" (probe id, build key).
	Op string
	// ProbeKey and BuildKey are the key columns; Scope, when >= 0 on both,
	// are scope columns (correlated NOT IN: the build rows of the probe
	// row's scope only; partitioned on the scope, a scope is whole on one
	// worker).
	ProbeKey, BuildKey     int
	ProbeScope, BuildScope int
	// Global are the build side's facts over every worker (anti with no
	// scope); nil makes the worker decide from its own partition only —
	// the partition-local decision the design rules out.
	Global *Facts
}

// DoGet streams a fragment's result: one int8 column (the probe row's
// first column, its id), and for "inner" the build key too.
func (w *worker) DoGet(t *flight.Ticket, stream flight.FlightService_DoGetServer) error {
	var fr Fragment
	if err := json.Unmarshal(t.Ticket, &fr); err != nil {
		return err
	}
	w.mu.Lock()
	probe, build := w.sides[sideKey(fr.Job, "probe")], w.sides[sideKey(fr.Job, "build")]
	w.mu.Unlock()
	out := runFragment(fr, probe, build)
	ncol := 1
	if fr.Op == "inner" {
		ncol = 2
	}
	wr := flight.NewRecordWriter(stream, ipc.WithSchema(ipcSchema(ncol)))
	defer wr.Close()
	return wr.Write(rowsRecord(out, ncol))
}

// runFragment is the fragment's hash join over one worker's partitions.
func runFragment(fr Fragment, probe, build side) side {
	scoped := fr.ProbeScope >= 0 && fr.BuildScope >= 0
	type scopeState struct {
		keys    map[int64]int
		hasNull bool
		rows    int
	}
	scopes := map[int64]*scopeState{}
	get := func(s int64) *scopeState {
		st := scopes[s]
		if st == nil {
			st = &scopeState{keys: map[int64]int{}}
			scopes[s] = st
		}
		return st
	}
	for _, b := range build {
		var sc int64
		if scoped {
			if b[fr.BuildScope] == nil {
				continue // s.g = t.g is never true for a NULL scope
			}
			sc = *b[fr.BuildScope]
		}
		st := get(sc)
		st.rows++
		if k := b[fr.BuildKey]; k == nil {
			st.hasNull = true
		} else {
			st.keys[*k]++
		}
	}
	var out side
	for _, p := range probe {
		var sc int64
		if scoped {
			if p[fr.ProbeScope] == nil {
				sc = -1 << 62 // no build row is in a NULL scope
			} else {
				sc = *p[fr.ProbeScope]
			}
		}
		st := scopes[sc]
		if st == nil {
			st = &scopeState{keys: map[int64]int{}}
		}
		rows, hasNull := int64(st.rows), st.hasNull
		if fr.Op == "anti" && !scoped && fr.Global != nil {
			rows, hasNull = fr.Global.Rows, fr.Global.NullKeys > 0
		}
		k := p[fr.ProbeKey]
		switch fr.Op {
		case "anti":
			// x NOT IN (set): TRUE for an empty set; else NULL x or a NULL
			// in the set make it UNKNOWN unless x is found (FALSE).
			switch {
			case rows == 0:
				out = append(out, side{{p[0]}}...)
			case k == nil || hasNull:
			case st.keys[*k] == 0:
				out = append(out, side{{p[0]}}...)
			}
		case "semi":
			if k != nil && st.keys[*k] > 0 {
				out = append(out, side{{p[0]}}...)
			}
		case "inner":
			if k != nil {
				for i := 0; i < st.keys[*k]; i++ {
					out = append(out, []*int64{p[0], k})
				}
			}
		}
	}
	return out
}

func ipcSchema(ncol int) *arrow.Schema {
	fields := make([]arrow.Field, ncol)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// rowsRecord is rows as an Arrow batch of ncol int8 columns.
func rowsRecord(rows side, ncol int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, ipcSchema(ncol))
	defer b.Release()
	for _, r := range rows {
		for c := 0; c < ncol; c++ {
			if r[c] == nil {
				b.Field(c).AppendNull()
			} else {
				b.Field(c).(*array.Int64Builder).Append(*r[c])
			}
		}
	}
	return b.NewRecordBatch()
}

// recordRows is the rows of an Arrow batch of int8 columns.
func recordRows(rec arrow.RecordBatch) side {
	out := make(side, rec.NumRows())
	for i := range out {
		row := make([]*int64, rec.NumCols())
		for c := range row {
			col := rec.Column(c).(*array.Int64)
			if col.IsValid(i) {
				v := col.Value(i)
				row[c] = &v
			}
		}
		out[i] = row
	}
	return out
}

// Serve runs a worker on a loopback port, calling ready with its address,
// until ctx ends.
func Serve(ctx context.Context, ready func(addr string)) error {
	srv := flight.NewFlightServer()
	if err := srv.Init("127.0.0.1:0"); err != nil {
		return err
	}
	srv.RegisterFlightService(newWorker())
	ready(srv.Addr().String())
	go func() {
		<-ctx.Done()
		srv.Shutdown()
	}()
	return srv.Serve()
}
