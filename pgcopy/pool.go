package pgcopy

import "sync"

// The COPY loader's worker pool, kept apart from the parser so that it can
// move onto a shared parallel-execution toolkit: one producer cuts the
// input into numbered chunks, workers parse them in any order, and the
// results come back in chunk order. Once a chunk fails or ends the data,
// later chunks are not parsed (their results are empty) and the producer
// stops reading.

// parseChunks runs produce, which sends chunks numbered 0, 1, ... on tasks
// and asks stop(i) before sending chunk i, and parses each chunk on one of
// workers goroutines, each with its own parse function from newWorker. It
// returns the results by chunk index and produce's error.
func parseChunks(workers int, produce func(tasks chan<- copyChunk, stop func(int) bool) error,
	newWorker func() func(copyChunk) *chunkResult) ([]*chunkResult, error) {
	var (
		mu      sync.Mutex
		results []*chunkResult
		// stopAt is the index of the first chunk known to fail or to end
		// the data: later chunks need no parsing.
		stopAt = int(^uint(0) >> 1)
	)
	tasks := make(chan copyChunk, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			parse := newWorker()
			for t := range tasks {
				mu.Lock()
				skip := t.idx > stopAt
				mu.Unlock()
				res := &chunkResult{}
				if !skip {
					res = parse(t)
				}
				mu.Lock()
				for len(results) <= t.idx {
					results = append(results, nil)
				}
				results[t.idx] = res
				if (res.err != nil || res.ended) && t.idx < stopAt {
					stopAt = t.idx
				}
				mu.Unlock()
			}
		}()
	}
	err := produce(tasks, func(idx int) bool {
		mu.Lock()
		defer mu.Unlock()
		return idx > stopAt
	})
	close(tasks)
	wg.Wait()
	return results, err
}
