package distsim

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Cluster is the coordinator's view of the workers.
type Cluster struct {
	clients []flight.Client
}

// Dial connects to the workers at addrs.
func Dial(addrs []string) (*Cluster, error) {
	c := &Cluster{}
	for _, a := range addrs {
		cl, err := flight.NewClientWithMiddleware(a, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			c.Close()
			return nil, err
		}
		c.clients = append(c.clients, cl)
	}
	return c, nil
}

// Close closes the connections.
func (c *Cluster) Close() {
	for _, cl := range c.clients {
		cl.Close()
	}
}

// Workers is the number of workers.
func (c *Cluster) Workers() int { return len(c.clients) }

// partitionOf is the worker of a key, as joind's Repartition places rows:
// by the key's hash, NULL keys on the first.
func partitionOf(k *int64, n int) int {
	if k == nil {
		return 0
	}
	h := uint64(*k) * 0x9E3779B97F4A7C15
	return int((h >> 32) % uint64(n))
}

// Put hash-partitions rows on column key across the workers as side name
// of job (the exchange below a Partitioned join).
func (c *Cluster) Put(ctx context.Context, job, name string, rows side, ncol, key int) error {
	parts := make([]side, len(c.clients))
	for _, r := range rows {
		p := partitionOf(r[key], len(c.clients))
		parts[p] = append(parts[p], r)
	}
	for w, cl := range c.clients {
		stream, err := cl.DoPut(ctx)
		if err != nil {
			return err
		}
		wr := flight.NewRecordWriter(stream, ipc.WithSchema(ipcSchema(ncol)))
		wr.SetFlightDescriptor(&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{job, name}})
		if err := wr.Write(rowsRecord(parts[w], ncol)); err != nil {
			return err
		}
		wr.Close()
		if err := stream.CloseSend(); err != nil {
			return err
		}
		for {
			if _, err := stream.Recv(); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return err
			}
		}
	}
	return nil
}

// Facts sums the facts of column col of a side over every worker: phase
// one of the null-aware two-phase step.
func (c *Cluster) Facts(ctx context.Context, job, name string, col int) (Facts, error) {
	var sum Facts
	body, _ := json.Marshal(factsRequest{Job: job, Side: name, Col: col})
	for _, cl := range c.clients {
		stream, err := cl.DoAction(ctx, &flight.Action{Type: "facts", Body: body})
		if err != nil {
			return sum, err
		}
		res, err := stream.Recv()
		if err != nil {
			return sum, err
		}
		var f Facts
		if err := json.Unmarshal(res.Body, &f); err != nil {
			return sum, err
		}
		sum.Rows += f.Rows
		sum.NullKeys += f.NullKeys
	}
	return sum, nil
}

// Run runs a fragment on every worker and gathers the rows.
func (c *Cluster) Run(ctx context.Context, fr Fragment) (side, error) {
	ticket, _ := json.Marshal(fr)
	var out side
	for _, cl := range c.clients {
		stream, err := cl.DoGet(ctx, &flight.Ticket{Ticket: ticket})
		if err != nil {
			return nil, err
		}
		rd, err := flight.NewRecordReader(stream)
		if err != nil {
			return nil, err
		}
		for rd.Next() {
			out = append(out, recordRows(rd.RecordBatch())...)
		}
		err = rd.Err()
		rd.Release()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
	}
	return out, nil
}
