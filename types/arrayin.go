package types

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/joind/joind/pgerr"
)

// array_in's parse states (PostgreSQL 15's ArrayParseState).
const (
	arrNoLevel = iota
	arrLevelStarted
	arrElemStarted
	arrElemCompleted
	arrQuotedElemStarted
	arrQuotedElemCompleted
	arrElemDelimited
	arrLevelCompleted
	arrLevelDelimited
)

func malformedArray(s, detail string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "malformed array literal: \"%s\"", s).WithDetail("%s", detail)
}

// parseArray is array_in: optional "[lo:hi]...=" dimensions, then the
// brace structure, checked by PostgreSQL 15's ArrayCount state machine
// (so malformed input gets its DETAIL), then each element read by the
// element type's input function.
func parseArray(s string, t Type, f *Format, now time.Time) (Value, error) {
	et := t.ElemType()
	p := 0
	for p < len(s) && arrayIsSpace(s[p]) {
		p++
	}
	var dims, lbs []int32
	for {
		for p < len(s) && arrayIsSpace(s[p]) {
			p++
		}
		if p >= len(s) || s[p] != '[' {
			break
		}
		p++
		if len(dims) >= maxArrayDims {
			return Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(dims)+1, maxArrayDims)
		}
		q := scanDimDigits(s, p)
		if q == p {
			return Value{}, malformedArray(s, "\"[\" must introduce explicitly-specified array dimensions.")
		}
		lb := int32(1)
		if q < len(s) && s[q] == ':' {
			lb = atoiC(s[p:q])
			p = q + 1
			q = scanDimDigits(s, p)
			if q == p {
				return Value{}, malformedArray(s, "Missing array dimension value.")
			}
		}
		if q >= len(s) || s[q] != ']' {
			return Value{}, malformedArray(s, "Missing \"]\" after array dimensions.")
		}
		ub := atoiC(s[p:q])
		p = q + 1
		if ub < lb {
			return Value{}, pgerr.New(pgerr.ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
		dims = append(dims, ub-lb+1)
		lbs = append(lbs, lb)
	}
	body := s[p:]
	if len(dims) == 0 {
		if !strings.HasPrefix(body, "{") {
			return Value{}, malformedArray(s, "Array value must start with \"{\" or dimension information.")
		}
	} else {
		if !strings.HasPrefix(body, "=") {
			return Value{}, malformedArray(s, "Missing \"=\" after array dimensions.")
		}
		body = strings.TrimLeft(body[1:], " \t\n\r\v\f")
		if !strings.HasPrefix(body, "{") {
			return Value{}, malformedArray(s, "Array contents must start with \"{\".")
		}
	}
	counted, err := arrayCount(s, body)
	if err != nil {
		return Value{}, err
	}
	if len(dims) == 0 {
		dims = counted
		lbs = make([]int32, len(dims))
		for i := range lbs {
			lbs[i] = 1
		}
	} else if !equalDims(dims, counted) {
		return Value{}, malformedArray(s, "Specified array dimensions do not match array contents.")
	}
	n := int64(1)
	for _, d := range dims {
		if n *= int64(d); n > maxArraySize {
			return Value{}, errArraySize()
		}
	}
	if len(dims) == 0 || n == 0 {
		return Value{Arr: &ArrayValue{}}, nil
	}
	for d := range dims {
		if int64(lbs[d])+int64(dims[d])-1 > 2147483647 {
			return Value{}, pgerr.New(pgerr.ProgramLimitExceeded, "array lower bound is too large: %d", lbs[d])
		}
	}
	items := readArrayItems(body)
	elems := make([]Value, len(items))
	for i, it := range items {
		if it.null {
			elems[i] = NullValue
			continue
		}
		v, err := ParseTextFormat(it.text, et, f, now)
		if err != nil {
			return Value{}, err
		}
		elems[i] = v
	}
	return Value{Arr: &ArrayValue{Dims: dims, Lbound: lbs, Elems: elems}}, nil
}

func scanDimDigits(s string, p int) int {
	for p < len(s) && (s[p] >= '0' && s[p] <= '9' || s[p] == '-' || s[p] == '+') {
		p++
	}
	return p
}

// atoiC is C's atoi over a run of digits and signs: the leading number,
// 0 when there is none.
func atoiC(s string) int32 {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	v, _ := strconv.ParseInt(s[i:j], 10, 64)
	if neg {
		v = -v
	}
	return int32(v)
}

func equalDims(a, b []int32) bool { return slices.Equal(a, b) }

// arrayCount is PostgreSQL 15's ArrayCount over body (which starts with
// "{"): it checks the structure and returns the dimensions, none for an
// empty array. s is the whole literal, for the messages.
func arrayCount(s, body string) ([]int32, error) {
	unexpected := func(c byte) error { return malformedArray(s, "Unexpected \""+string(c)+"\" character.") }
	nest := 0
	var nelems, nelemsLast [maxArrayDims]int32
	for i := range nelems {
		nelems[i] = 1
	}
	// size[d] is the element count of dimension d seen at the first close.
	var size [maxArrayDims]int32
	depth := 0 // the deepest nesting level seen
	inQuotes, empty := false, true
	state := arrNoLevel
	p := 0
	for {
		if state == arrElemStarted || state == arrQuotedElemStarted {
			empty = false
		}
		if p >= len(body) {
			return nil, malformedArray(s, "Unexpected end of input.")
		}
		c := body[p]
		switch c {
		case '\\':
			if state != arrLevelStarted && state != arrElemStarted && state != arrQuotedElemStarted && state != arrElemDelimited {
				return nil, unexpected('\\')
			}
			if state != arrQuotedElemStarted {
				state = arrElemStarted
			}
			if p+1 >= len(body) {
				return nil, malformedArray(s, "Unexpected end of input.")
			}
			p++
		case '"':
			if state != arrLevelStarted && state != arrQuotedElemStarted && state != arrElemDelimited {
				return nil, malformedArray(s, "Unexpected array element.")
			}
			inQuotes = !inQuotes
			if inQuotes {
				state = arrQuotedElemStarted
			} else {
				state = arrQuotedElemCompleted
			}
		case '{':
			if !inQuotes {
				if state != arrNoLevel && state != arrLevelStarted && state != arrLevelDelimited {
					return nil, unexpected('{')
				}
				state = arrLevelStarted
				if nest >= maxArrayDims {
					return nil, pgerr.New(pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", nest+1, maxArrayDims)
				}
				nest++
				depth = max(depth, nest)
			}
		case '}':
			if !inQuotes {
				if state != arrElemStarted && state != arrElemCompleted && state != arrQuotedElemCompleted &&
					state != arrLevelCompleted && !(nest == 1 && state == arrLevelStarted) {
					return nil, unexpected('}')
				}
				wasEmptyLevel := state == arrLevelStarted
				state = arrLevelCompleted
				if nest == 0 {
					return nil, malformedArray(s, "Unmatched \"}\" character.")
				}
				nest--
				if nelemsLast[nest] != 0 && nelems[nest] != nelemsLast[nest] {
					return nil, malformedArray(s, "Multidimensional arrays must have sub-arrays with matching dimensions.")
				}
				nelemsLast[nest] = nelems[nest]
				if size[nest] == 0 && !wasEmptyLevel {
					size[nest] = nelems[nest]
				}
				nelems[nest] = 1
				if nest == 0 {
					p++
					for ; p < len(body); p++ {
						if !arrayIsSpace(body[p]) {
							return nil, malformedArray(s, "Junk after closing right brace.")
						}
					}
					if empty {
						return nil, nil
					}
					dims := make([]int32, depth)
					copy(dims, size[:depth])
					for _, d := range dims {
						if d == 0 {
							return nil, malformedArray(s, "Multidimensional arrays must have sub-arrays with matching dimensions.")
						}
					}
					return dims, nil
				}
			}
		default:
			if !inQuotes {
				if c == ',' {
					if state != arrElemStarted && state != arrElemCompleted && state != arrQuotedElemCompleted && state != arrLevelCompleted {
						return nil, unexpected(',')
					}
					if state == arrLevelCompleted {
						state = arrLevelDelimited
					} else {
						state = arrElemDelimited
					}
					nelems[nest-1]++
				} else if !arrayIsSpace(c) {
					if state != arrLevelStarted && state != arrElemStarted && state != arrElemDelimited {
						return nil, malformedArray(s, "Unexpected array element.")
					}
					state = arrElemStarted
				}
			}
		}
		p++
	}
}

type arrayItem struct {
	text string
	null bool
}

// readArrayItems is ReadArrayStr's element scan over a structure
// arrayCount accepted: each element's text with quotes and backslashes
// removed, leading and trailing unquoted white space dropped; an unquoted
// NULL (any case) is a NULL element.
func readArrayItems(body string) []arrayItem {
	var items []arrayItem
	var cur []byte
	started, quoted, inQuotes := false, false, false
	trimTo := 0 // length of cur without trailing unquoted white space
	flush := func() {
		if started {
			text := string(cur[:trimTo])
			items = append(items, arrayItem{text: text, null: !quoted && strings.EqualFold(text, "NULL")})
		}
		cur, started, quoted, trimTo = cur[:0], false, false, 0
	}
	for p := 0; p < len(body); p++ {
		c := body[p]
		switch {
		case c == '\\':
			p++
			cur = append(cur, body[p])
			started, trimTo = true, len(cur)
		case c == '"':
			inQuotes = !inQuotes
			started, quoted = true, true
			trimTo = len(cur)
		case inQuotes:
			cur = append(cur, c)
			trimTo = len(cur)
		case c == '{':
		case c == '}' || c == ',':
			flush()
		case arrayIsSpace(c):
			if started {
				cur = append(cur, c)
			}
		default:
			cur = append(cur, c)
			started, trimTo = true, len(cur)
		}
	}
	return items
}
