package tpch

import (
	"bytes"
	"io"
	"sync"
)

// chunkUnits is the units one worker of WriteParallel generates at a time
// (for lineitem, some 4 MB of text).
const chunkUnits = 30000

// WriteParallel writes table t in full to w, like Write, generating chunks
// of rows on up to workers goroutines (each chunk starts by skipping rows,
// as WriteRange) and writing them in order; at most 2×workers chunks are
// held at once.
func (g *Generator) WriteParallel(w io.Writer, t Table, workers int) error {
	return g.writeParallel(w, t, workers, chunkUnits, nil)
}

// WriteParallelProgress is WriteParallel telling wrote the units (Units)
// of each chunk once it is written, for a progress display.
func (g *Generator) WriteParallelProgress(w io.Writer, t Table, workers int, wrote func(units int64)) error {
	return g.writeParallel(w, t, workers, chunkUnits, wrote)
}

func (g *Generator) writeParallel(w io.Writer, t Table, workers int, chunkUnits int64, wrote func(int64)) error {
	units := g.Units(t)
	if workers <= 1 || units <= chunkUnits {
		err := g.Write(w, t)
		if err == nil && wrote != nil {
			wrote(units)
		}
		return err
	}
	g.textPool() // build it once, not racing in every worker
	chunks := int((units + chunkUnits - 1) / chunkUnits)
	type chunk struct {
		buf bytes.Buffer
		err error
	}
	done := make([]chan *chunk, chunks)
	for i := range done {
		done[i] = make(chan *chunk, 1)
	}
	next := make(chan int)
	stop := make(chan struct{})
	window := make(chan struct{}, 2*workers) // chunks generated, not yet written
	go func() {
		defer close(next)
		for i := range chunks {
			select {
			case window <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				c := &chunk{}
				first := int64(i)*chunkUnits + 1
				c.err = g.WriteRange(&c.buf, t, first, min(chunkUnits, units-first+1))
				done[i] <- c
			}
		}()
	}
	var err error
	for i := range chunks {
		c := <-done[i]
		err = c.err
		if err == nil {
			_, err = w.Write(c.buf.Bytes())
		}
		if err != nil {
			break
		}
		if wrote != nil {
			first := int64(i)*chunkUnits + 1
			wrote(min(chunkUnits, units-first+1))
		}
		<-window
	}
	close(stop)
	// Drain what the workers still produce so none blocks (each done
	// channel has room for its one chunk), then wait for them.
	go func() {
		for range next {
		}
	}()
	wg.Wait()
	return err
}
