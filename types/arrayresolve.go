package types

// Polymorphic array signatures. joind resolves PostgreSQL's anyarray /
// anyelement and anycompatiblearray / anycompatible alike: the slots'
// element types unify to one type the others convert to implicitly
// (enforce_generic_type_consistency with anycompatible's promotion), except
// that the comparison and containment operators, anyarray in PostgreSQL,
// take arrays of one type only (exactArrayOps).
const (
	idAnyArray   ID = 252
	idAnyElement ID = 251
	// Slots of one concrete array type (int4[], text[]), since a
	// signature's slot is an ID.
	intArrayID  ID = 250
	textArrayID ID = 249
)

var concreteArraySlots = map[ID]Type{intArrayID: ArrayOf(Int4Type), textArrayID: ArrayOf(TextType)}

func isArrayPoly(id ID) bool { return id == idAnyArray || id == idAnyElement }

// polyElem is the element type the polymorphic slots of sig take for the
// inputs in; ok is false when they do not unify (or all are unknown).
func polyElem(sig []ID, in []Type) (Type, bool) {
	var known []Type
	for i, id := range sig {
		switch {
		case id == idAnyArray && in[i].ID == Array:
			known = append(known, in[i].ElemType())
		case id == idAnyArray && in[i].ID != Unknown:
			return Type{}, false
		case id == idAnyElement && in[i].ID == Array && !IsVector(in[i]):
			// anycompatible may be an array only with anycompatiblearray
			// of arrays, which joind's arrays (elements of base types, or
			// the vectors of int2vector[] / oidvector[]) never are.
			return Type{}, false
		case id == idAnyElement && in[i].ID != Unknown:
			known = append(known, in[i])
		}
	}
	if len(known) == 0 {
		return Type{}, false
	}
	best := known[0]
	for _, t := range known[1:] {
		if t.ID == best.ID {
			if t.Typmod != best.Typmod {
				best.Typmod = -1
			}
			continue
		}
		// select_common_type: move to t only from a type that is not its
		// category's preferred one and converts to t one way only
		switch {
		case !idPreferred(best.ID) && castContext(best.ID, t.ID) == 'i' && castContext(t.ID, best.ID) != 'i':
			best = Type{ID: t.ID, Typmod: -1}
		case castContext(t.ID, best.ID) == 'i':
			best.Typmod = -1
		default:
			return Type{}, false
		}
	}
	if !ArrayOf(best).Valid() { // int2vector[]'s elements are int2vector
		return Type{}, false
	}
	return best, true
}

// polyConsistent drops the array-polymorphic candidates whose slots do not
// unify for in, so resolution never picks one it cannot instantiate.
func polyConsistent(cands []*builtin, in []Type) []*builtin {
	var out []*builtin
next:
	for _, c := range cands {
		sig := c.argsFor(len(in))
		if len(sig) != len(in) {
			out = append(out, c)
			continue
		}
		for i, id := range sig {
			if ct, ok := concreteArraySlots[id]; ok && in[i].ID == Array {
				if imp, _, _ := CanCast(in[i], ct); !imp && in[i].Elem != ct.Elem {
					continue next
				}
			}
		}
		poly := false
		for _, id := range sig {
			poly = poly || isArrayPoly(id)
		}
		if poly {
			if _, ok := polyElem(sig, in); !ok {
				continue
			}
			if exactArrayOps[c.name] && !sameArrayTypes(sig, in) {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// exactArrayOps are the operators PostgreSQL 15 declares over anyarray,
// not anycompatiblearray: their arrays must already be of one type.
var exactArrayOps = map[string]bool{"=": true, "<>": true, "<": true, ">": true, "<=": true, ">=": true,
	"@>": true, "<@": true, "&&": true}

// sameArrayTypes is check_generic_type_consistency for anyarray slots: the
// arrays given (unknown literals aside) have one element type.
func sameArrayTypes(sig []ID, in []Type) bool {
	var first *Type
	for i, id := range sig {
		if id != idAnyArray || in[i].ID != Array {
			continue
		}
		if first == nil {
			first = &in[i]
		} else if first.Elem != in[i].Elem || first.UserOID != in[i].UserOID {
			return false
		}
	}
	return true
}

// polyType is the concrete type of slot id given the element type.
func polyType(id ID, elem Type) Type {
	if id == idAnyArray {
		return ArrayOf(elem)
	}
	return elem
}

// polySlotAccepts: anyarray takes arrays, anynonarray non-arrays,
// anyelement both (polyElem takes only a vector of the arrays); an
// unknown literal fits each.
func polySlotAccepts(slot, in ID) bool {
	switch slot {
	case idAnyArray, intArrayID, textArrayID:
		return in == Array || in == Unknown
	case idAnyNonArray:
		return in != Array
	case idAnyElement:
		return true // an array only if a vector: polyElem decides
	}
	return true
}

// polyElemFor is the element type of b's array-polymorphic slots for the
// inputs in; poly is false when b has none.
func (b *builtin) polyElemFor(sig []ID, in []Type) (elem Type, poly bool) {
	for _, id := range sig {
		poly = poly || isArrayPoly(id)
	}
	if !poly && !isArrayPoly(b.result) {
		return Type{}, false
	}
	elem, ok := polyElem(sig, in)
	if !ok {
		elem = TextType
	}
	return elem, true
}
