package sql

import (
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/joind/joind/sql/plan"
	"github.com/joind/joind/types"
)

// Stored SQL (view bodies, DEFAULT expressions) is text that is bound again
// at each use, possibly under other DateStyle, IntervalStyle or TimeZone
// settings. PostgreSQL stores such a literal already converted, fixed when
// the object was created; joind rewrites the literal, before storing the
// text, to a spelling every session reads back as the same value.

// canonFormat spells datetime values so that any DateStyle field order and
// TimeZone reads them back unchanged (ISO dates, UTC offsets), and intervals
// in the verbose style, which never starts with a sign and so cannot meet
// sql_standard's leading-minus rule.
var canonFormat = types.Format{DateStyle: "ISO, MDY", IntervalStyle: "postgres_verbose", ExtraFloatDigits: 1, TimeZone: time.UTC}

// noteStoredLiteral records the settings-independent spelling of an
// untyped literal just read as v of type t, when binding stored SQL.
func (b *binder) noteStoredLiteral(lit plan.Expr, v types.Value, t types.Type) {
	if b.storedLits == nil || len(b.expanding) > 0 || v.Null {
		return
	}
	switch t.ID {
	case types.Date, types.Timestamp, types.TimestampTZ, types.Interval, types.Time, types.TimeTZ:
	default:
		return
	}
	if loc := b.locOf(lit); loc >= 0 {
		b.storedLits[loc] = string(types.FormatText(nil, v, t, &canonFormat))
	}
}

// rewriteStoredLiterals replaces, in the raw tree, the literals noted while
// binding it by their settings-independent spelling.
func rewriteStoredLiterals(n protoreflect.Message, lits map[int32]string) {
	if len(lits) == 0 {
		return
	}
	walkProto(n, func(m protoreflect.Message) {
		if c, ok := m.Interface().(*pg_query.A_Const); ok && c.GetSval() != nil {
			if s, ok := lits[c.Location]; ok {
				c.GetSval().Sval = s
			}
		}
	})
}
