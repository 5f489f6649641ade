package types

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/joind/joind/pgerr"
)

// to_char(numeric|int|float, text) and to_number(text, text): NUM_processor
// of PostgreSQL 15's formatting.c, in the C locale (sign "-"/"+", decimal
// point ".", thousands separator ",", currency symbol " ").

const (
	numCOMMA = iota
	numDEC
	num0
	num9
	numB
	numC
	numD
	numE
	numFM
	numG
	numL
	numMI
	numPL
	numPR
	numRN
	numSG
	numSP
	numS
	numTH
	numV
	numrn
	numth
)

var numKeywords = []fmtKeyword{
	{name: ",", id: numCOMMA}, {name: ".", id: numDEC}, {name: "0", id: num0}, {name: "9", id: num9},
	{name: "B", id: numB}, {name: "C", id: numC}, {name: "D", id: numD}, {name: "EEEE", id: numE},
	{name: "FM", id: numFM}, {name: "G", id: numG}, {name: "L", id: numL}, {name: "MI", id: numMI},
	{name: "PL", id: numPL}, {name: "PR", id: numPR}, {name: "RN", id: numRN}, {name: "SG", id: numSG},
	{name: "SP", id: numSP}, {name: "S", id: numS}, {name: "TH", id: numTH}, {name: "V", id: numV},
	{name: "b", id: numB}, {name: "c", id: numC}, {name: "d", id: numD}, {name: "eeee", id: numE},
	{name: "fm", id: numFM}, {name: "g", id: numG}, {name: "l", id: numL}, {name: "mi", id: numMI},
	{name: "pl", id: numPL}, {name: "pr", id: numPR}, {name: "rn", id: numrn}, {name: "sg", id: numSG},
	{name: "sp", id: numSP}, {name: "s", id: numS}, {name: "th", id: numth}, {name: "v", id: numV},
}

var numKeywordIdx = newKeywordIndex(numKeywords)

// NUMDesc flags.
const (
	numFDecimal = 1 << iota
	numFLDecimal
	numFZero
	numFBlank
	numFFillMode
	numFLSign
	numFBracket
	numFMinus
	numFPlus
	numFRoman
	numFMulti
	numFPlusPost
	numFMinusPost
	numFEEEE
)

const (
	lsignNone = iota
	lsignPre
	lsignPost
)

// numDesc is NUMDesc: what the template asks of the number.
type numDesc struct {
	pre, post, lsign, flag, preLsignNum, multi, zeroStart, zeroEnd int
}

func (d *numDesc) has(f int) bool { return d.flag&f != 0 }

func numSyntaxErr(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.SyntaxError, format, args...)
}

// prepare is NUMDesc_prepare: account for one keyword of the template.
func (d *numDesc) prepare(id int) error {
	if d.has(numFEEEE) && id != numE {
		return numSyntaxErr("\"EEEE\" must be the last pattern used")
	}
	switch id {
	case num9:
		if d.has(numFBracket) {
			return numSyntaxErr("\"9\" must be ahead of \"PR\"")
		}
		switch {
		case d.has(numFMulti):
			d.multi++
		case d.has(numFDecimal):
			d.post++
		default:
			d.pre++
		}
	case num0:
		if d.has(numFBracket) {
			return numSyntaxErr("\"0\" must be ahead of \"PR\"")
		}
		if !d.has(numFZero) && !d.has(numFDecimal) {
			d.flag |= numFZero
			d.zeroStart = d.pre + 1
		}
		if !d.has(numFDecimal) {
			d.pre++
		} else {
			d.post++
		}
		d.zeroEnd = d.pre + d.post
	case numB:
		if d.pre == 0 && d.post == 0 && !d.has(numFZero) {
			d.flag |= numFBlank
		}
	case numD, numDEC:
		if id == numD {
			d.flag |= numFLDecimal
		}
		if d.has(numFDecimal) {
			return numSyntaxErr("multiple decimal points")
		}
		if d.has(numFMulti) {
			return numSyntaxErr("cannot use \"V\" and decimal point together")
		}
		d.flag |= numFDecimal
	case numFM:
		d.flag |= numFFillMode
	case numS:
		if d.has(numFLSign) {
			return numSyntaxErr("cannot use \"S\" twice")
		}
		if d.has(numFPlus) || d.has(numFMinus) || d.has(numFBracket) {
			return numSyntaxErr("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together")
		}
		if !d.has(numFDecimal) {
			d.lsign = lsignPre
			d.preLsignNum = d.pre
			d.flag |= numFLSign
		} else if d.lsign == lsignNone {
			d.lsign = lsignPost
			d.flag |= numFLSign
		}
	case numMI, numPL:
		name, flag, post := "MI", numFMinus, numFMinusPost
		if id == numPL {
			name, flag, post = "PL", numFPlus, numFPlusPost
		}
		if d.has(numFLSign) {
			return numSyntaxErr("cannot use \"S\" and \"%s\" together", name)
		}
		d.flag |= flag
		if d.has(numFDecimal) {
			d.flag |= post
		}
	case numSG:
		if d.has(numFLSign) {
			return numSyntaxErr("cannot use \"S\" and \"SG\" together")
		}
		d.flag |= numFMinus | numFPlus
	case numPR:
		if d.has(numFLSign) || d.has(numFPlus) || d.has(numFMinus) {
			return numSyntaxErr("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together")
		}
		d.flag |= numFBracket
	case numRN, numrn:
		d.flag |= numFRoman
	case numV:
		if d.has(numFDecimal) {
			return numSyntaxErr("cannot use \"V\" and decimal point together")
		}
		d.flag |= numFMulti
	case numE:
		if d.has(numFEEEE) {
			return numSyntaxErr("cannot use \"EEEE\" twice")
		}
		if d.has(numFBlank) || d.has(numFFillMode) || d.has(numFLSign) || d.has(numFBracket) ||
			d.has(numFMinus) || d.has(numFPlus) || d.has(numFRoman) || d.has(numFMulti) {
			return numSyntaxErr("\"EEEE\" is incompatible with other formats").
				WithDetail("\"EEEE\" may only be used together with digit and decimal point patterns.")
		}
		d.flag |= numFEEEE
	}
	return nil
}

// numProc is NUMProc for to_char: the number's digits (numstr, without
// sign) are laid out along the template.
type numProc struct {
	d            *numDesc
	sign         byte
	signWrote    bool
	numCount     int
	numIn        bool
	numCurr      int
	outPreSpaces int
	number       string
	numberP      int
	lastRelevant int // index into number, -1 for none
	out          []byte
}

func (p *numProc) at(i int) byte {
	if i >= 0 && i < len(p.number) {
		return p.number[i]
	}
	return 0
}

// predecSpace is IS_PREDEC_SPACE: "0.1" with 9.9 prints " .1".
func (p *numProc) predecSpace() bool {
	return !p.d.has(numFZero) && p.numberP == 0 && p.at(0) == '0' && p.d.post != 0
}

func (p *numProc) lastRelevantIsDot() bool {
	return p.lastRelevant >= 0 && p.at(p.lastRelevant) == '.'
}

// numpartToChar is NUM_numpart_to_char.
func (p *numProc) numpartToChar(id int) {
	d := p.d
	if d.has(numFRoman) {
		return
	}
	p.numIn = false
	// the sign goes out just before the first digit written
	if !p.signWrote &&
		(p.numCurr >= p.outPreSpaces || (d.has(numFZero) && d.zeroStart == p.numCurr)) &&
		(!p.predecSpace() || p.lastRelevantIsDot()) {
		switch {
		case d.has(numFLSign):
			if d.lsign == lsignPre {
				p.out = append(p.out, pick(p.sign == '-', "-", "+")...)
				p.signWrote = true
			}
		case d.has(numFBracket):
			p.out = append(p.out, pick(p.sign == '+', byte(' '), byte('<')))
			p.signWrote = true
		case p.sign == '+':
			if !d.has(numFFillMode) {
				p.out = append(p.out, ' ')
			}
			p.signWrote = true
		case p.sign == '-':
			p.out = append(p.out, '-')
			p.signWrote = true
		}
	}
	if id == num9 || id == num0 || id == numD || id == numDEC {
		switch {
		case p.numCurr < p.outPreSpaces && (d.zeroStart > p.numCurr || !d.has(numFZero)):
			if !d.has(numFFillMode) {
				p.out = append(p.out, ' ')
			}
		case d.has(numFZero) && p.numCurr < p.outPreSpaces && d.zeroStart <= p.numCurr:
			p.out = append(p.out, '0')
			p.numIn = true
		default:
			if p.at(p.numberP) == '.' {
				if !p.lastRelevantIsDot() || d.has(numFFillMode) {
					p.out = append(p.out, '.')
				}
			} else {
				switch {
				case p.lastRelevant >= 0 && p.numberP > p.lastRelevant && id != num0:
				case p.predecSpace():
					if !d.has(numFFillMode) {
						p.out = append(p.out, ' ')
					} else if p.lastRelevantIsDot() {
						p.out = append(p.out, '0')
					}
				default:
					// past the digits C writes the string's terminator
					p.out = append(p.out, p.at(p.numberP))
					p.numIn = true
				}
			}
			if p.at(p.numberP) != 0 {
				p.numberP++
			}
		}
		end := p.numCount + pick(p.outPreSpaces != 0, 1, 0) + pick(d.has(numFDecimal), 1, 0)
		if p.lastRelevant >= 0 && p.lastRelevant == p.numberP {
			end = p.numCurr
		}
		if p.numCurr+1 == end {
			if p.signWrote && d.has(numFBracket) {
				p.out = append(p.out, pick(p.sign == '+', byte(' '), byte('>')))
			} else if d.has(numFLSign) && d.lsign == lsignPost {
				p.out = append(p.out, pick(p.sign == '-', "-", "+")...)
			}
		}
	}
	p.numCurr++
}

// lastRelevantDecimal is get_last_relevant_decnum: the last nonzero digit
// after the point (or the point itself), -1 without a point.
func lastRelevantDecimal(num string) int {
	dot := strings.IndexByte(num, '.')
	if dot < 0 {
		return -1
	}
	r := dot
	for i := dot + 1; i < len(num); i++ {
		if num[i] != '0' {
			r = i
		}
	}
	return r
}

// numToChar is NUM_processor in the to_char direction.
func numToChar(nodes []fmtNode, desc numDesc, number string, outPreSpaces int, sign byte) (string, error) {
	d := &desc
	p := &numProc{d: d, number: number, lastRelevant: -1}
	if d.zeroStart != 0 {
		d.zeroStart--
	}
	if d.has(numFEEEE) {
		return number, nil
	}
	if d.has(numFRoman) {
		d.lsign, d.preLsignNum, d.post, d.pre = 0, 0, 0, 0
		outPreSpaces, sign = 0, 0
		d.flag = numFRoman | (d.flag & numFFillMode)
	}
	p.sign = sign
	if d.has(numFPlus) || d.has(numFMinus) {
		// MI/PL/SG write the sign themselves
		p.signWrote = !(d.has(numFPlus) && !d.has(numFMinus))
	} else {
		if p.sign != '-' {
			if d.has(numFBracket) && d.has(numFFillMode) {
				d.flag &^= numFBracket
			}
			if d.has(numFMinus) {
				d.flag &^= numFMinus
			}
		} else if p.sign != '+' && d.has(numFPlus) {
			d.flag &^= numFPlus
		}
		p.signWrote = p.sign == '+' && d.has(numFFillMode) && !d.has(numFLSign)
		if d.lsign == lsignPre && d.pre == d.preLsignNum {
			d.lsign = lsignPost
		}
	}
	p.numCount = d.post + d.pre - 1
	p.outPreSpaces = outPreSpaces
	if d.has(numFFillMode) && d.has(numFDecimal) {
		p.lastRelevant = lastRelevantDecimal(number)
		// keep the digits a '0' asks for, within the number
		if p.lastRelevant >= 0 && d.zeroEnd > p.outPreSpaces {
			lastZero := min(len(number)-1, d.zeroEnd-p.outPreSpaces)
			if p.lastRelevant < lastZero {
				p.lastRelevant = lastZero
			}
		}
	}
	if !p.signWrote && p.outPreSpaces == 0 {
		p.numCount++
	}
	for i := range nodes {
		n := &nodes[i]
		if n.kind != nodeAction {
			p.out = append(p.out, n.ch...)
			continue
		}
		switch n.key.id {
		case num9, num0, numDEC, numD:
			p.numpartToChar(n.key.id)
		case numCOMMA, numG:
			if p.numIn {
				p.out = append(p.out, ',')
			} else if !d.has(numFFillMode) {
				p.out = append(p.out, ' ')
			}
		case numL:
			p.out = append(p.out, ' ')
		case numRN, numrn:
			r := number[p.numberP:]
			if n.key.id == numrn {
				r = strings.ToLower(r)
			}
			if !d.has(numFFillMode) && len(r) < 15 {
				r = strings.Repeat(" ", 15-len(r)) + r
			}
			p.out = append(p.out, r...)
		case numth, numTH:
			if d.has(numFRoman) || p.at(0) == '#' || p.sign == '-' || d.has(numFDecimal) {
				continue
			}
			th, err := ordinalSuffix(number, n.key.id == numTH)
			if err != nil {
				return "", err
			}
			p.out = append(p.out, th...)
		case numMI:
			if p.sign == '-' {
				p.out = append(p.out, '-')
			} else if !d.has(numFFillMode) {
				p.out = append(p.out, ' ')
			}
		case numPL:
			if p.sign == '+' {
				p.out = append(p.out, '+')
			} else if !d.has(numFFillMode) {
				p.out = append(p.out, ' ')
			}
		case numSG:
			p.out = append(p.out, p.sign)
		}
	}
	// a NUL written above ends the C string there
	if k := bytes.IndexByte(p.out, 0); k >= 0 {
		p.out = p.out[:k]
	}
	return string(p.out), nil
}

func numToCharValue(nodes []fmtNode, d numDesc, numstr string, outPre int, sign byte) (Value, error) {
	s, err := numToChar(nodes, d, numstr, outPre, sign)
	if err != nil {
		return Value{}, err
	}
	return Value{S: s}, nil
}

// overflowDigits is the '#' picture of a number too wide for the template.
func overflowDigits(d *numDesc) string {
	b := []byte(strings.Repeat("#", d.pre+d.post+1))
	b[d.pre] = '.'
	return string(b)
}

// eeeeOverflow is the '#' picture EEEE prints for NaN and infinity.
func eeeeOverflow(d *numDesc) string {
	b := []byte(strings.Repeat("#", d.pre+d.post+6))
	b[0] = ' '
	b[d.pre+1] = '.'
	return string(b)
}

// layoutDigits finishes the integer and numeric paths: pad out (or '#')
// the integer part of digits (no sign) to the template's.
func layoutDigits(d *numDesc, digits string) (string, int) {
	preLen := len(digits)
	if k := strings.IndexByte(digits, '.'); k >= 0 {
		preLen = k
	}
	switch {
	case preLen < d.pre:
		return digits, d.pre - preLen
	case preLen > d.pre:
		return overflowDigits(d), 0
	}
	return digits, 0
}

func splitSign(s string) (string, byte) {
	if strings.HasPrefix(s, "-") {
		return s[1:], '-'
	}
	return s, '+'
}

// cFloat is PostgreSQL's snprintf "%.*f"/"%+.*e": NaN and infinities are
// spelled "NaN", "Infinity" and "-Infinity".
func cFloat(v float64, fmtc byte, prec int, plus bool) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return pick(plus, "+Infinity", "Infinity")
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(v, fmtc, prec, 64)
	if plus && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

func withSpaceSign(s string) string {
	if strings.HasPrefix(s, "+") {
		return " " + s[1:]
	}
	return s
}

// numTemplateToChar runs a number's to_char: layout turns the value into
// the digits string (and padding and sign) NUM_processor lays out, adjusting
// its copy of the template's NUMDesc. An empty template gives ”.
func numTemplateToChar(tmpl string, layout func(d *numDesc) (string, int, byte, error)) (Value, error) {
	if tmpl == "" {
		return Value{S: ""}, nil
	}
	t := numCache.get(tmpl, false)
	if t.err != nil {
		return Value{}, t.err
	}
	d := t.num
	numstr, outPre, sign, err := layout(&d)
	if err != nil {
		return Value{}, err
	}
	return numToCharValue(t.nodes, d, numstr, outPre, sign)
}

func intToChar(v int64, tmpl string, int4 bool) (Value, error) {
	return numTemplateToChar(tmpl, func(d *numDesc) (numstr string, outPre int, sign byte, err error) {
		switch {
		case d.has(numFRoman):
			if !int4 && (v > math.MaxInt32 || v < math.MinInt32) {
				return "", 0, 0, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
			}
			numstr = intToRoman(v)
		case d.has(numFEEEE):
			if int4 {
				numstr = withSpaceSign(cFloat(float64(v), 'e', d.post, true))
			} else {
				numstr = numericSci(apd.New(v, 0), d.post)
				if !strings.HasPrefix(numstr, "-") {
					numstr = " " + numstr
				}
			}
		default:
			if d.has(numFMulti) {
				if int4 {
					v = int64(int32(v) * int32(math.Pow(10, float64(d.multi))))
				} else {
					m := math.Pow(10, float64(d.multi))
					if m >= 9223372036854775807 {
						return "", 0, 0, pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
					}
					r, ok := mulInt64(v, int64(m))
					if !ok {
						return "", 0, 0, pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
					}
					v = r
				}
				d.pre += d.multi
			}
			var digits string
			digits, sign = splitSign(strconv.FormatInt(v, 10))
			if d.post > 0 {
				digits += "." + strings.Repeat("0", d.post)
			}
			numstr, outPre = layoutDigits(d, digits)
		}
		return numstr, outPre, sign, nil
	})
}

func floatToChar(v float64, tmpl string, float4 bool) (Value, error) {
	return numTemplateToChar(tmpl, func(d *numDesc) (numstr string, outPre int, sign byte, err error) {
		switch {
		case d.has(numFRoman):
			numstr = intToRoman(int64(int32(math.RoundToEven(v))))
		case d.has(numFEEEE):
			if math.IsNaN(v) || math.IsInf(v, 0) {
				numstr = eeeeOverflow(d)
			} else if float4 {
				numstr = withSpaceSign(cFloat32(float32(v), 'e', d.post, true))
			} else {
				numstr = withSpaceSign(cFloat(v, 'e', d.post, true))
			}
		default:
			val := v
			if d.has(numFMulti) {
				if float4 {
					val = float64(float32(v) * float32(math.Pow(10, float64(d.multi))))
				} else {
					val = v * math.Pow(10, float64(d.multi))
				}
				d.pre += d.multi
			}
			digitsMax := pick(float4, 6, 15) // FLT_DIG, DBL_DIG
			preLen := len(cFloatOf(math.Abs(val), 0, float4))
			if preLen >= digitsMax {
				d.post = 0
			} else if preLen+d.post > digitsMax {
				d.post = digitsMax - preLen
			}
			var digits string
			digits, sign = splitSign(cFloatOf(val, d.post, float4))
			numstr, outPre = layoutDigits(d, digits)
		}
		return numstr, outPre, sign, nil
	})
}

func cFloatOf(v float64, prec int, float4 bool) string {
	if float4 {
		return cFloat32(float32(v), 'f', prec, false)
	}
	return cFloat(v, 'f', prec, false)
}

func cFloat32(v float32, fmtc byte, prec int, plus bool) string {
	// a float4 promotes to double for printf
	return cFloat(float64(v), fmtc, prec, plus)
}

func numericToChar(x *apd.Decimal, tmpl string) (Value, error) {
	return numTemplateToChar(tmpl, func(d *numDesc) (numstr string, outPre int, sign byte, err error) {
		switch {
		case d.has(numFRoman):
			if x.Form != apd.Finite {
				return "", 0, 0, pgerr.New(pgerr.FeatureNotSupported, "cannot convert %s to integer", pick(x.Form == apd.Infinite, "infinity", "NaN"))
			}
			r := roundNumericScale(x, 0)
			i, err := r.Int64()
			if err != nil || i > math.MaxInt32 || i < math.MinInt32 {
				return "", 0, 0, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
			}
			numstr = intToRoman(i)
		case d.has(numFEEEE):
			if x.Form != apd.Finite {
				numstr = eeeeOverflow(d)
			} else if numstr = numericSci(x, d.post); !strings.HasPrefix(numstr, "-") {
				numstr = " " + numstr
			}
		default:
			val := x
			if d.has(numFMulti) {
				val = new(apd.Decimal)
				_, _ = exactCtx.Mul(val, x, apd.New(1, int32(d.multi)))
				d.pre += d.multi
			}
			var digits string
			digits, sign = splitSign(NumericString(roundNumericScale(val, d.post)))
			numstr, outPre = layoutDigits(d, digits)
		}
		return numstr, outPre, sign, nil
	})
}

// numericSci is numeric_out_sci: d.ddd…e±XX with scale digits after the
// point, the significand rounded half away from zero.
func numericSci(x *apd.Decimal, scale int) string {
	if x.Form != apd.Finite {
		return NumericString(x)
	}
	exp := 0
	if x.Coeff.Sign() != 0 {
		exp = int(x.NumDigits()) + int(x.Exponent) - 1
	}
	sig := new(apd.Decimal)
	sig.Set(x)
	sig.Exponent -= int32(exp)
	sig = roundNumericScale(sig, scale)
	s := sig.Text('f')
	if sig.Negative && sig.Coeff.Sign() == 0 {
		s = strings.TrimPrefix(s, "-")
	}
	return s + "e" + pick(exp < 0, "-", "+") + zeroPad(absInt(exp), 2)
}

func registerNumberToChar() {
	for _, id := range []ID{Int4, Int8} {
		int4 := id == Int4
		regFn("to_char", []ID{id, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
			return intToChar(a[0].I, a[1].S, int4)
		})
	}
	for _, id := range []ID{Float4, Float8} {
		float4 := id == Float4
		regFn("to_char", []ID{id, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
			return floatToChar(a[0].F, a[1].S, float4)
		})
	}
	regFn("to_char", []ID{Numeric, Text}, Text, func(_ *EvalContext, a []Value) (Value, error) {
		return numericToChar(a[0].Num, a[1].S)
	})
	regFn("to_number", []ID{Text, Text}, Numeric, func(_ *EvalContext, a []Value) (Value, error) {
		return toNumber(a[0].S, a[1].S)
	})
}
