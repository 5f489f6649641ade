package types

import "github.com/joind/joind/pgerr"

// widthBucketArray is width_bucket(operand, thresholds): the number of
// thresholds at or below operand, found by binary search of the (assumed
// sorted) one-dimensional, NULL-free thresholds array as
// width_bucket_array does.
func widthBucketArray(_ *EvalContext, et Type, a []Value) (Value, error) {
	th := a[1].Arr
	if len(th.Dims) > 1 {
		return Value{}, pgerr.New(pgerr.ArraySubscriptError, "thresholds must be one-dimensional array")
	}
	for _, e := range th.Elems {
		if e.Null {
			return Value{}, pgerr.New(pgerr.NullValueNotAllowed, "thresholds array must not contain NULLs")
		}
	}
	left, right := 0, len(th.Elems)
	for left < right {
		mid := (left + right) / 2
		if Compare(a[0], th.Elems[mid], et) < 0 {
			right = mid
		} else {
			left = mid + 1
		}
	}
	return Value{I: int64(left)}, nil
}

func init() {
	arrFn("width_bucket", []ID{idAnyElement, idAnyArray}, Int4, true, widthBucketArray)
}
