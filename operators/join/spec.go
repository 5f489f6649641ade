package join

import (
	"github.com/joind/joind/pgerr"
	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Mode is how the build side is distributed over the probe partitions: the
// partition-mode type the optimizer plans with (plan.JoinMode).
//
// CollectLeft collects the whole build (left) side once and shares it,
// read-only, with every probe partition. Build rows whose output depends on
// the whole probe side are emitted by the last probe partition.
//
// Partitioned joins build partition i with probe partition i: both inputs
// arrive already hash-repartitioned on their keys by an exchange operator
// below the join (operators.NewRepartition), with Spec.Partitions
// partitions each.
type Mode = plan.JoinMode

const (
	CollectLeft = plan.CollectLeft
	Partitioned = plan.Partitioned
)

// Spec describes a hash join. LEFT IS THE BUILD SIDE (collected first), RIGHT
// the probe side.
type Spec struct {
	// Type: inner, left (build rows preserved), right (probe rows
	// preserved), full, semi / anti / mark (emit build rows: LeftSemi,
	// LeftAnti, LeftMark). CrossJoin is not a hash join.
	Type plan.JoinType
	// EmitProbe turns SemiJoin / AntiJoin into RightSemi / RightAnti: the
	// probe rows with (without) a match are emitted and the output columns
	// are the probe side's. `probe WHERE k NOT IN (SELECT k FROM build)` is a
	// null-aware RightAnti.
	EmitProbe bool
	// NullAware gives anti and mark joins NOT IN semantics (see doc.go):
	// NULLs make the comparison UNKNOWN instead of FALSE. Legal with AntiJoin
	// (either side) and MarkJoin; a no-op for semi joins.
	NullAware bool
	Mode      Mode
	// LeftKeys[i] = RightKeys[i] are the equi-keys (at least one).
	LeftKeys, RightKeys []plan.Expr
	// KeyNullsEqual[i] makes key i an IS NOT DISTINCT FROM key (NULL matches
	// NULL). nil = all false.
	KeyNullsEqual []bool
	// ValueKeys (null-aware only) is how many leading keys are the NOT IN
	// value (a row constructor has several); the remaining keys are the
	// correlation-scope keys. 0 means 1.
	ValueKeys int
	// Residual is evaluated over (build row, probe row) pairs whose keys are
	// equal; a pair matches when it is TRUE. nil = none. In a null-aware join
	// it is the subquery's scope filter: a pair where it is FALSE or NULL is
	// out of scope, as in a WHERE clause.
	Residual plan.Expr
	// ResidualUnknown (null-aware only) makes a NULL residual UNKNOWN rather
	// than out of scope: for a residual that is part of the comparison
	// itself (op ANY / op ALL with a non-equality op), not a WHERE filter.
	ResidualUnknown bool
	// Cols are the output columns (plan.Join.Columns(): left's then right's;
	// left's for semi/anti; left's then Mark for mark; right's for
	// RightSemi/RightAnti). They are matched to the inputs by ColumnID.
	Cols []plan.Column
	// Mark is the mark column of a mark join.
	Mark *plan.Column
	// MemoryLimit caps the build side's bytes (0 = no limit) when the Env
	// has no Spill space; beyond it the join fails with SQLSTATE 53200.
	// With one, the query's limit applies and the join spills (grace.go).
	MemoryLimit int64
	// Partitions is the number of partitions in Partitioned mode: both
	// inputs must have exactly this many (0 = the inputs' count).
	Partitions int
}

// kind is the physical join type.
type kind uint8

const (
	kInner kind = iota
	kLeft       // build rows preserved
	kRight      // probe rows preserved
	kFull
	kLeftSemi
	kLeftAnti
	kLeftMark
	kRightSemi
	kRightAnti
)

var kindNames = [...]string{"Inner", "Left", "Right", "Full", "LeftSemi", "LeftAnti", "LeftMark", "RightSemi", "RightAnti"}

func (k kind) String() string { return kindNames[k] }

// emitsBuild: the kind emits build rows after the whole probe side was seen.
func (k kind) emitsBuild() bool {
	return k == kLeft || k == kFull || k == kLeftSemi || k == kLeftAnti || k == kLeftMark
}

// outputsBuild: the output has build-side columns.
func (k kind) outputsBuild() bool { return k != kRightSemi && k != kRightAnti }

// outputsProbe: the output has probe-side columns.
func (k kind) outputsProbe() bool { return k <= kFull || k == kRightSemi || k == kRightAnti }

// naMode is the null-aware machinery a join needs.
type naMode uint8

const (
	naNone      naMode = iota
	naLeftAnti         // uncorrelated build NOT IN (probe): decided by the probe Summary
	naLeftMark         // uncorrelated mark: likewise
	naRightAnti        // uncorrelated probe NOT IN (build): decided by the build's NULLs
	naPerRow           // correlated LeftAnti/LeftMark: UNKNOWN decided per build row
)

func (m naMode) String() string {
	return [...]string{"none", "LeftAnti (uncorrelated)", "LeftMark (uncorrelated)", "RightAnti", "per build row (correlated)"}[m]
}

func planErr(format string, args ...any) error {
	return pgerr.New(pgerr.InternalError, format, args...)
}

// kindOf maps a logical join type to the physical kind: left is the build
// side; emitProbe turns semi/anti into RightSemi/RightAnti. what names the
// operator in errors.
func kindOf(t plan.JoinType, emitProbe bool, mark *plan.Column, what string) (kind, error) {
	switch t {
	case plan.InnerJoin:
		return kInner, nil
	case plan.LeftJoin:
		return kLeft, nil
	case plan.RightJoin:
		return kRight, nil
	case plan.FullJoin:
		return kFull, nil
	case plan.SemiJoin:
		if emitProbe {
			return kRightSemi, nil
		}
		return kLeftSemi, nil
	case plan.AntiJoin:
		if emitProbe {
			return kRightAnti, nil
		}
		return kLeftAnti, nil
	case plan.MarkJoin:
		if mark == nil {
			return 0, planErr("mark join has no mark column")
		}
		return kLeftMark, nil
	}
	return 0, planErr("%s does not support join type %d", what, t)
}

// classify validates spec and derives the kind and null-aware mode.
func classify(spec *Spec) (kind, naMode, error) {
	k, err := kindOf(spec.Type, spec.EmitProbe, spec.Mark, "hash join")
	if err != nil {
		return 0, 0, err
	}
	if spec.EmitProbe && k != kRightSemi && k != kRightAnti {
		return 0, 0, planErr("EmitProbe applies only to semi and anti joins, not %s", k)
	}
	nk := len(spec.LeftKeys)
	if nk == 0 {
		return 0, 0, planErr("hash join requires at least one equi-join key")
	}
	if len(spec.RightKeys) != nk {
		return 0, 0, planErr("hash join has %d left keys but %d right keys", nk, len(spec.RightKeys))
	}
	if spec.KeyNullsEqual != nil && len(spec.KeyNullsEqual) != nk {
		return 0, 0, planErr("hash join has %d keys but %d KeyNullsEqual flags", nk, len(spec.KeyNullsEqual))
	}
	if err := checkKeyTypes(spec.LeftKeys, spec.RightKeys); err != nil {
		return 0, 0, err
	}
	if spec.Residual != nil && spec.Residual.Type().ID != types.Bool {
		return 0, 0, planErr("hash join residual filter is not boolean")
	}
	if !spec.NullAware {
		if spec.ResidualUnknown {
			return 0, 0, planErr("ResidualUnknown applies only to null-aware joins")
		}
		return k, naNone, nil
	}

	// Null-aware: a whitelist of legal combinations.
	vk := spec.ValueKeys
	if vk == 0 {
		vk = 1
	}
	if vk > nk {
		return 0, 0, planErr("null-aware join has %d value keys but only %d keys", vk, nk)
	}
	for i := 0; i < vk; i++ {
		if spec.KeyNullsEqual != nil && spec.KeyNullsEqual[i] {
			return 0, 0, pgerr.New(pgerr.FeatureNotSupported, "null-aware join value key %d cannot be IS NOT DISTINCT FROM", i+1)
		}
	}
	correlated := nk > 1 || spec.Residual != nil
	switch k {
	case kLeftSemi, kRightSemi:
		// x IN (...) in WHERE: UNKNOWN filters like FALSE, a plain semi join.
		return k, naNone, nil
	case kRightAnti:
		switch {
		case nk != 1:
			return 0, 0, pgerr.New(pgerr.FeatureNotSupported, "null-aware RightAnti join supports only a single join key, got %d", nk)
		case spec.Residual != nil:
			return 0, 0, pgerr.New(pgerr.FeatureNotSupported, "null-aware RightAnti join does not support a residual filter")
		case spec.Mode != CollectLeft:
			return 0, 0, pgerr.New(pgerr.FeatureNotSupported, "null-aware RightAnti join requires CollectLeft mode, got Partitioned")
		}
		return k, naRightAnti, nil
	case kLeftAnti, kLeftMark:
		if spec.Mode == Partitioned && (correlated || k == kLeftMark) {
			return 0, 0, pgerr.New(pgerr.FeatureNotSupported,
				"null-aware %s join with per-row NULL decisions requires CollectLeft mode, got Partitioned", k)
		}
		if correlated {
			return k, naPerRow, nil
		}
		if k == kLeftAnti {
			return k, naLeftAnti, nil
		}
		return k, naLeftMark, nil
	}
	return 0, 0, planErr("null-aware %s join is not supported", k)
}
