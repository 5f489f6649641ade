package pgcopy

import (
	"encoding/binary"

	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/types"
)

// appendArrayBinary is array_send: ndim, has-NULL flag, element type OID,
// (length, lower bound) per dimension, then each element as its length
// (-1 for NULL) and its own send format.
func appendArrayBinary(dst []byte, v types.Value, t types.Type) []byte {
	a, et := v.Arr, t.ElemType()
	hasNull := uint32(0)
	for _, e := range a.Elems {
		if e.Null {
			hasNull = 1
			break
		}
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(a.Dims)))
	dst = binary.BigEndian.AppendUint32(dst, hasNull)
	dst = binary.BigEndian.AppendUint32(dst, et.OID())
	for d := range a.Dims {
		dst = binary.BigEndian.AppendUint32(dst, uint32(a.Dims[d]))
		dst = binary.BigEndian.AppendUint32(dst, uint32(a.Lbound[d]))
	}
	for _, e := range a.Elems {
		if e.Null {
			dst = binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = AppendBinary(dst, e, et)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}

func errArrayBinary(format string, args ...any) error {
	return pgerr.New(CodeInvalidBinary, format, args...)
}

// decodeArrayBinary is array_recv.
func decodeArrayBinary(b []byte, t types.Type) (types.Value, error) {
	et := t.ElemType()
	p := 0
	u32 := func() (uint32, error) {
		if p+4 > len(b) {
			return 0, errBinaryShort()
		}
		x := binary.BigEndian.Uint32(b[p:])
		p += 4
		return x, nil
	}
	nd, err := u32()
	if err != nil {
		return types.Value{}, err
	}
	if int32(nd) < 0 || nd > 6 {
		return types.Value{}, errArrayBinary("invalid number of dimensions: %d", int32(nd))
	}
	flags, err := u32()
	if err != nil {
		return types.Value{}, err
	}
	if flags != 0 && flags != 1 {
		return types.Value{}, errArrayBinary("invalid array flags")
	}
	oid, err := u32()
	if err != nil {
		return types.Value{}, err
	}
	if oid != et.OID() {
		return types.Value{}, pgerr.New(pgerr.DatatypeMismatch, "binary data has array element type %d instead of expected %d", oid, et.OID())
	}
	a := &types.ArrayValue{}
	n := int64(1)
	for d := uint32(0); d < nd; d++ {
		dim, err := u32()
		if err != nil {
			return types.Value{}, err
		}
		lb, err := u32()
		if err != nil {
			return types.Value{}, err
		}
		a.Dims, a.Lbound = append(a.Dims, int32(dim)), append(a.Lbound, int32(lb))
		n *= int64(int32(dim))
		if int32(dim) < 0 || n > 134217727 {
			return types.Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (134217727)")
		}
	}
	if nd == 0 || n == 0 {
		return types.Value{Arr: &types.ArrayValue{}}, nil
	}
	a.Elems = make([]types.Value, n)
	for i := range a.Elems {
		l, err := u32()
		if err != nil {
			return types.Value{}, err
		}
		if int32(l) == -1 {
			a.Elems[i] = types.NullValue
			continue
		}
		if int32(l) < 0 || p+int(l) > len(b) {
			return types.Value{}, errArrayBinary("insufficient data left in message")
		}
		e, err := DecodeBinary(b[p:p+int(l)], et)
		if err == ErrBinaryTrailing {
			return types.Value{}, errArrayBinary("improper binary format in array element %d", i+1)
		}
		if err != nil {
			return types.Value{}, err
		}
		a.Elems[i] = e
		p += int(l)
	}
	if p != len(b) {
		return types.Value{}, ErrBinaryTrailing
	}
	return types.Value{Arr: a}, nil
}
