package types

import (
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// to_number(text, text): NUM_processor in the from-char direction. It
// collects a sign, digits and a point from the input as the template's
// nodes walk along it, then hands the result to numeric input with the
// template's precision and the scale actually read.

type numReader struct {
	d        *numDesc
	in       string
	pos      int
	number   []byte // number[0] is the sign slot (' ', '-' or '+')
	readDec  bool
	readPost int
	readPre  int
}

func (r *numReader) overload() bool { return r.pos >= len(r.in) }
func (r *numReader) cur() byte {
	if r.pos < len(r.in) {
		return r.in[r.pos]
	}
	return 0
}

// numpartFromChar is NUM_numpart_from_char.
func (r *numReader) numpartFromChar(id int) {
	d := r.d
	if r.overload() {
		return
	}
	if r.cur() == ' ' {
		r.pos++
	}
	if r.overload() {
		return
	}
	// a sign before the first digit
	if r.number[0] == ' ' && (id == num0 || id == num9) && r.readPre+r.readPost == 0 {
		c := r.cur()
		if d.has(numFLSign) && d.lsign == lsignPre {
			if c == '-' || c == '+' {
				r.pos++
				r.number[0] = c
			}
		} else if c == '-' || (d.has(numFBracket) && c == '<') {
			r.number[0] = '-'
			r.pos++
		} else if c == '+' {
			r.number[0] = '+'
			r.pos++
		}
	}
	if r.overload() {
		return
	}
	isread := false
	if c := r.cur(); isDigit(c) {
		if r.readDec && r.readPost == d.post {
			return
		}
		r.number = append(r.number, c)
		if r.readDec {
			r.readPost++
		} else {
			r.readPre++
		}
		isread = true
	} else if d.has(numFDecimal) && !r.readDec && c == '.' {
		r.number = append(r.number, '.')
		r.readDec = true
		isread = true
	}
	if r.overload() {
		return
	}
	// a sign after the last digit
	if r.number[0] == ' ' && r.readPre+r.readPost > 0 {
		if d.has(numFLSign) && isread && r.pos+1 < len(r.in) && !isDigit(r.in[r.pos+1]) {
			if c := r.in[r.pos+1]; c == '-' || c == '+' {
				r.pos++
				r.number[0] = c
			}
		} else if !isread && !d.has(numFLSign) && (d.has(numFPlus) || d.has(numFMinus)) {
			if c := r.cur(); c == '-' || c == '+' {
				r.number[0] = c
			}
		}
	}
}

// eatNonData is NUM_eat_non_data_chars: skip up to n characters that are
// not part of a number.
func (r *numReader) eatNonData(n int) {
	for ; n > 0 && !r.overload(); n-- {
		if strings.IndexByte("0123456789.,+-", r.cur()) >= 0 {
			break
		}
		r.pos += charLen(r.in[r.pos:])
	}
}

func toNumber(in, tmpl string) (Value, error) {
	if tmpl == "" {
		return NullValue, nil
	}
	t := numCache.get(tmpl, false)
	if t.err != nil {
		return Value{}, t.err
	}
	d := t.num
	if d.has(numFEEEE) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "\"EEEE\" not supported for input")
	}
	if d.has(numFRoman) {
		return Value{}, pgerr.New(pgerr.FeatureNotSupported, "\"RN\" not supported for input")
	}
	r := &numReader{d: &d, in: in, number: []byte{' '}}
	for i := range t.nodes {
		if r.overload() {
			break
		}
		n := &t.nodes[i]
		if n.kind != nodeAction {
			// one input character per literal, matching or not
			r.pos += charLen(r.in[r.pos:])
			continue
		}
		switch n.key.id {
		case num9, num0, numDEC, numD:
			r.numpartFromChar(n.key.id)
		case numCOMMA, numG:
			if d.has(numFFillMode) || r.cur() != ',' {
				continue
			}
		case numL:
			r.eatNonData(1)
			continue
		case numth, numTH:
			if !d.has(numFDecimal) {
				r.eatNonData(2)
			}
			continue
		case numMI, numPL, numSG:
			c := r.cur()
			want := (n.key.id != numPL && c == '-') || (n.key.id != numMI && c == '+')
			if !want {
				r.eatNonData(1)
				continue
			}
			r.number[0] = c
		default:
			continue
		}
		r.pos++
	}
	num := r.number
	if num[len(num)-1] == '.' {
		num = num[:len(num)-1]
	}
	scale := r.readPost
	precision := d.pre + d.multi + scale
	x, err := parseNumeric(string(num))
	if err != nil {
		return Value{}, err
	}
	if x, err = applyNumericTypmod(x, NumericTypmod(precision, scale)); err != nil {
		return Value{}, err
	}
	if d.has(numFMulti) {
		// times 10^-multi, at numeric_power's display scale
		powScale := max(16, d.multi)
		p := apd.New(1, int32(-d.multi))
		r := new(apd.Decimal)
		_, _ = exactCtx.Mul(r, x, p)
		x = roundNumericScale(r, dscale(x)+powScale)
	}
	return Value{Num: normNum(x)}, nil
}
