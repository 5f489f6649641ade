package operators

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// takeLargeBinary gathers rows of an array column (types.Array's stored
// form) by index.
func takeLargeBinary(a *array.LargeBinary, idx []int) arrow.Array {
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.LargeBinary)
	defer b.Release()
	b.Reserve(len(idx))
	for _, i := range idx {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		b.Append(a.Value(i))
	}
	return b.NewArray()
}
