package sqlfuzz

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/joind/joind/types"
)

// Knobs switch off generation of forms with a known, recorded disagreement
// (see FINDINGS.md) so the bounded CI run stays green while the fix lands.
// Each is true = "avoid". JOIND_FUZZ_KNOBS="AvoidX=false,AvoidY=true"
// overrides them, e.g. to check whether a fix has landed.
type Knobs struct {
	// AvoidIntervalQualifiers: never `interval '3' month` (qualified
	// interval literals; fixed elsewhere, known bug).
	AvoidIntervalQualifiers bool
	// AvoidTypmodLiterals: never `'x'::varchar(2)`, `numeric(5,2) '1.5'`
	// (typmod'd literals and casts; known bug).
	AvoidTypmodLiterals bool
	// AvoidNumericTranscendental: no numeric sqrt/power/^/exp/ln/log/log10
	// (result scales differ from PostgreSQL; known bug).
	AvoidNumericTranscendental bool
	// AvoidTimestampsPastInt64: no timestamp/timestamptz values after
	// 294247-01-10 (joind keeps µs since 1970 in an int64, which ends
	// there; PostgreSQL counts from 2000 and accepts up to 294276-12-31).
	// FINDINGS.md #1.
	AvoidTimestampsPastInt64 bool
	// AllowErrorPrecedence: when both fail, a joind data exception (class
	// 22, raised while folding constants during binding) against a
	// PostgreSQL analysis error (class 42, raised before any evaluation)
	// counts as error-precedence, not a disagreement. FINDINGS.md #2.
	AllowErrorPrecedence bool
	// AllowOneSidedDataErrors: a data exception (class 22/21) on one side
	// only is order-dependent-error, not a disagreement, in every query
	// (not only where WHERE/CASE/joins leave evaluation open): joind's
	// constant folding evaluates stable expressions PostgreSQL leaves to
	// run time, and short-circuits strict calls with a NULL argument
	// before PostgreSQL has folded (and failed on) the others.
	// FINDINGS.md #3.
	AllowOneSidedDataErrors bool
	// AvoidNotInNullOperand: the left operand of [NOT] IN (subquery) is a
	// bare column: one that folds to a constant (`(NULL::smallint / c)
	// NOT IN (SELECT 1 ...)`, `(c AND false) NOT IN (...)`, IN as a value)
	// is XX000 "null-aware join without an equi-key". FINDINGS.md #5.
	AvoidNotInNullOperand bool
	// AvoidAge: no age(): age() of an infinite timestamp differs (joind
	// decodes infinity from its 1970 epoch, PostgreSQL 15 from 2000).
	// FINDINGS.md #6.
	AvoidAge bool
	// AvoidUnorderedMinMax: no GREATEST/LEAST over json, jsonpath or xid, which have no
	// comparison: PostgreSQL fails when the executor starts (also over no
	// rows), joind when it evaluates one. FINDINGS.md #7.
	AvoidUnorderedMinMax bool
}

// DefaultKnobs avoids every form with an open finding.
func DefaultKnobs() Knobs {
	return Knobs{
		AvoidIntervalQualifiers:    false,
		AvoidTypmodLiterals:        false,
		AvoidNumericTranscendental: false,
		AvoidTimestampsPastInt64:   true,
		AllowErrorPrecedence:       true,
		AllowOneSidedDataErrors:    true,
		AvoidNotInNullOperand:      false,
		AvoidAge:                   true,
		AvoidUnorderedMinMax:       true,
	}
}

// knobsFromEnv is DefaultKnobs with JOIND_FUZZ_KNOBS applied.
func knobsFromEnv() (Knobs, error) {
	k := DefaultKnobs()
	s := os.Getenv("JOIND_FUZZ_KNOBS")
	if s == "" {
		return k, nil
	}
	v := reflect.ValueOf(&k).Elem()
	for _, kv := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			val = "true"
		}
		f := v.FieldByName(name)
		if !f.IsValid() || f.Kind() != reflect.Bool {
			return k, fmt.Errorf("JOIND_FUZZ_KNOBS: no knob %q", name)
		}
		b, err := strconv.ParseBool(val)
		if err != nil {
			return k, fmt.Errorf("JOIND_FUZZ_KNOBS: %s: %v", name, err)
		}
		f.SetBool(b)
	}
	return k, nil
}

var numericTranscendental = map[string]bool{
	"sqrt": true, "power": true, "pow": true, "exp": true, "ln": true, "log": true, "log10": true, "^": true,
}

func hasArg(s types.Signature, id types.ID) bool {
	for _, a := range s.Args {
		if a == id {
			return true
		}
	}
	return false
}

func (k *Knobs) excludedOp(s types.Signature) bool { return k.excludedFunc(s) }

func (k *Knobs) excludedFunc(s types.Signature) bool {
	if k.AvoidNumericTranscendental && numericTranscendental[s.Name] && hasArg(s, types.Numeric) {
		return true
	}
	return k.AvoidAge && s.Name == "age"
}

func (k *Knobs) excludedAgg(s types.Signature) bool { return false }

// String lists the knobs as JOIND_FUZZ_KNOBS would set them.
func (k Knobs) String() string {
	v := reflect.ValueOf(k)
	var parts []string
	for i := 0; i < v.NumField(); i++ {
		parts = append(parts, fmt.Sprintf("%s=%v", v.Type().Field(i).Name, v.Field(i).Bool()))
	}
	return strings.Join(parts, ",")
}

// filterPool drops pool values a knob avoids.
func (k *Knobs) filterPool(id types.ID, pool []string) []string {
	if !k.AvoidTimestampsPastInt64 || (id != types.Timestamp && id != types.TimestampTZ) {
		return pool
	}
	var out []string
	for _, v := range pool {
		if !strings.HasPrefix(v, "294276-") {
			out = append(out, v)
		}
	}
	return out
}
