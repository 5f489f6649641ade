package types

import "github.com/joind/joind/pgerr"

// TypeForParamOID maps a parameter type OID a client sends in Parse to a
// type; ok is false for OID 0 / unknown (infer from context).
func TypeForParamOID(oid uint32) (t Type, ok bool, err error) {
	switch oid {
	case 0, OIDUnknown:
		return UnknownType, false, nil
	case OIDBool:
		return BoolType, true, nil
	case OIDInt2:
		return Int2Type, true, nil
	case OIDInt4:
		return Int4Type, true, nil
	case OIDInt8:
		return Int8Type, true, nil
	case OIDFloat4:
		return Float4Type, true, nil
	case OIDFloat8:
		return Float8Type, true, nil
	case OIDNumeric:
		return NumericType, true, nil
	case OIDText:
		return TextType, true, nil
	case OIDName:
		return NameType, true, nil
	case OIDVarchar:
		return VarcharType, true, nil
	case OIDBpchar:
		return CharType, true, nil
	case OIDDate:
		return DateType, true, nil
	case OIDTimestamp:
		return TimestampType, true, nil
	case OIDTimestampTZ:
		return TimestampTZType, true, nil
	case OIDInterval:
		return IntervalType, true, nil
	case OIDJSON:
		return JSONType, true, nil
	case OIDJSONB:
		return JSONBType, true, nil
	case OIDJSONPath:
		return JSONPathType, true, nil
	case OIDInet:
		return InetType, true, nil
	case OIDCidr:
		return CidrType, true, nil
	case OIDMacAddr:
		return MacAddrType, true, nil
	case OIDMacAddr8:
		return MacAddr8Type, true, nil
	case OIDPoint:
		return PointType, true, nil
	}
	switch oid {
	case OIDInt2Vector:
		return Int2VectorType, true, nil
	case OIDOidVector:
		return OidVectorType, true, nil
	}
	for id, k := range oidKinds {
		if k.oid == oid {
			return Type{ID: id, Typmod: -1}, true, nil
		}
	}
	if t, ok := ArrayTypeByOID(oid); ok {
		return t, true, nil
	}
	return Type{}, false, pgerr.New(pgerr.FeatureNotSupported, "parameter type with OID %d is not supported", oid)
}
