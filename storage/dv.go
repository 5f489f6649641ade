package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// DeleteVector is the set of deleted row offsets of one segment: a bitmap
// cut into chunks of chunkBits rows, a nil chunk holding no deleted row.
// It is immutable once built: adding offsets (with) copies the chunk
// pointer array and only the chunks it changes, so a version, a snapshot
// or a savepoint keeps its own vector for the price of the chunks that
// differ, and a scan tests a whole chunk-free range at once (Any).
type DeleteVector struct {
	chunks []*dvChunk
	n      int64 // deleted rows
}

const (
	chunkShift = 12
	chunkBits  = 1 << chunkShift // rows per chunk
	chunkWords = chunkBits / 64
)

type dvChunk [chunkWords]uint64

// Count is the number of deleted rows (0 for a nil vector).
func (d *DeleteVector) Count() int64 {
	if d == nil {
		return 0
	}
	return d.n
}

// Deleted reports whether row offset off is deleted.
func (d *DeleteVector) Deleted(off int64) bool {
	if d == nil || off < 0 {
		return false
	}
	ci := int(off >> chunkShift)
	if ci >= len(d.chunks) || d.chunks[ci] == nil {
		return false
	}
	w := (off >> 6) & (chunkWords - 1)
	return d.chunks[ci][w]>>(uint(off)&63)&1 != 0
}

// Any reports whether some offset in [lo, hi) is deleted.
func (d *DeleteVector) Any(lo, hi int64) bool {
	if d == nil || d.n == 0 || lo >= hi {
		return false
	}
	for off := lo; off < hi; {
		ci := int(off >> chunkShift)
		if ci >= len(d.chunks) {
			return false
		}
		end := min(hi, int64(ci+1)<<chunkShift)
		c := d.chunks[ci]
		if c != nil {
			for o := off; o < end; {
				w := c[(o>>6)&(chunkWords-1)] >> (uint(o) & 63)
				span := min(end-o, 64-(o&63))
				if span < 64 {
					w &= 1<<uint(span) - 1
				}
				if w != 0 {
					return true
				}
				o += span
			}
		}
		off = end
	}
	return false
}

// Live appends to dst the offsets in [lo, hi) that are not deleted, minus
// shift (so a scan gets indexes into the batch starting at offset shift),
// a 64-row word at a time.
func (d *DeleteVector) Live(lo, hi, shift int64, dst []int) []int {
	for off := lo; off < hi; {
		ci := int(off >> chunkShift)
		var c *dvChunk
		if d != nil && ci < len(d.chunks) {
			c = d.chunks[ci]
		}
		end := min(hi, int64(ci+1)<<chunkShift)
		if c == nil {
			for o := off; o < end; o++ {
				dst = append(dst, int(o-shift))
			}
			off = end
			continue
		}
		for off < end {
			span := min(end-off, 64-(off&63))
			live := ^(c[(off>>6)&(chunkWords-1)] >> (uint(off) & 63))
			if span < 64 {
				live &= 1<<uint(span) - 1
			}
			for live != 0 {
				b := int64(bits.TrailingZeros64(live))
				dst = append(dst, int(off+b-shift))
				live &= live - 1
			}
			off += span
		}
	}
	return dst
}

// DeletedIn appends to dst the deleted offsets in [lo, hi), ascending, and
// stops (returning ok=false) once there are more than limit of them.
func (d *DeleteVector) DeletedIn(lo, hi int64, limit int, dst []int64) (out []int64, ok bool) {
	if d == nil {
		return dst, true
	}
	n := 0
	for off := lo; off < hi; {
		ci := int(off >> chunkShift)
		if ci >= len(d.chunks) {
			break
		}
		end := min(hi, int64(ci+1)<<chunkShift)
		c := d.chunks[ci]
		if c == nil {
			off = end
			continue
		}
		for off < end {
			span := min(end-off, 64-(off&63))
			w := c[(off>>6)&(chunkWords-1)] >> (uint(off) & 63)
			if span < 64 {
				w &= 1<<uint(span) - 1
			}
			for w != 0 {
				if n++; n > limit {
					return dst, false
				}
				dst = append(dst, off+int64(bits.TrailingZeros64(w)))
				w &= w - 1
			}
			off += span
		}
	}
	return dst, true
}

// with returns d plus offs (sorted or not); dup is the first offset that
// was already deleted in d or repeated in offs (-1: none), in which case
// the result is nil.
func (d *DeleteVector) with(offs []int64) (out *DeleteVector, dup int64) {
	out = &DeleteVector{}
	if d != nil {
		out.chunks = append([]*dvChunk(nil), d.chunks...)
		out.n = d.n
	}
	var owned map[int]bool // chunks copied by this call
	for _, off := range offs {
		ci := int(off >> chunkShift)
		for ci >= len(out.chunks) {
			out.chunks = append(out.chunks, nil)
		}
		c := out.chunks[ci]
		if c == nil {
			c = new(dvChunk)
			out.chunks[ci] = c
			if owned == nil {
				owned = map[int]bool{}
			}
			owned[ci] = true
		} else if !owned[ci] {
			cp := *c
			c = &cp
			out.chunks[ci] = c
			if owned == nil {
				owned = map[int]bool{}
			}
			owned[ci] = true
		}
		w, b := (off>>6)&(chunkWords-1), uint(off)&63
		if c[w]>>b&1 != 0 {
			return nil, off
		}
		c[w] |= 1 << b
		out.n++
	}
	return out, -1
}

// union returns the rows deleted in a or b (which must not overlap).
func union(a, b *DeleteVector) *DeleteVector {
	if a.Count() == 0 {
		return b
	}
	if b.Count() == 0 {
		return a
	}
	n := max(len(a.chunks), len(b.chunks))
	out := &DeleteVector{chunks: make([]*dvChunk, n)}
	for i := 0; i < n; i++ {
		var ca, cb *dvChunk
		if i < len(a.chunks) {
			ca = a.chunks[i]
		}
		if i < len(b.chunks) {
			cb = b.chunks[i]
		}
		switch {
		case ca == nil:
			out.chunks[i] = cb
		case cb == nil:
			out.chunks[i] = ca
		default:
			c := new(dvChunk)
			for w := range c {
				c[w] = ca[w] | cb[w]
			}
			out.chunks[i] = c
		}
	}
	out.n = a.n + b.n // disjoint: the callers checked (firstOverlap, with)
	return out
}

// offsets lists the deleted offsets in ascending order.
func (d *DeleteVector) offsets() []int64 {
	if d == nil {
		return nil
	}
	out := make([]int64, 0, d.n)
	for ci, c := range d.chunks {
		if c == nil {
			continue
		}
		for w, word := range c {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				out = append(out, int64(ci)<<chunkShift|int64(w)<<6|int64(b))
				word &= word - 1
			}
		}
	}
	return out
}

// firstOverlap returns an offset deleted in both a and b (-1: none).
func firstOverlap(a, b *DeleteVector) int64 {
	if a.Count() == 0 || b.Count() == 0 {
		return -1
	}
	for i := 0; i < min(len(a.chunks), len(b.chunks)); i++ {
		ca, cb := a.chunks[i], b.chunks[i]
		if ca == nil || cb == nil {
			continue
		}
		for w := range ca {
			if x := ca[w] & cb[w]; x != 0 {
				return int64(i)<<chunkShift | int64(w)<<6 | int64(bits.TrailingZeros64(x))
			}
		}
	}
	return -1
}

// encodeOffsets is ascending offsets as uvarint gaps.
func encodeOffsets(offs []int64) []byte {
	out := make([]byte, 0, len(offs)*2)
	prev := int64(0)
	for _, o := range offs {
		out = binary.AppendUvarint(out, uint64(o-prev))
		prev = o
	}
	return out
}

// decodeOffsets reverses encodeOffsets, checking every offset is below rows
// and strictly ascending.
func decodeOffsets(b []byte, rows int64) ([]int64, error) {
	var out []int64
	prev := int64(0)
	for len(b) > 0 {
		g, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("bad varint")
		}
		b = b[n:]
		o := prev + int64(g)
		if o >= rows || (len(out) > 0 && g == 0) || o < prev {
			return nil, fmt.Errorf("offset %d out of order or range", o)
		}
		out = append(out, o)
		prev = o
	}
	return out, nil
}
