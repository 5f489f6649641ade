package types

// reservedKeywords are PostgreSQL 15's keywords that are not unreserved
// (categories col_name, type_func_name and reserved): quote_ident quotes
// them, as quote_identifier does. Generated from the oracle with
//
//	SELECT word FROM pg_get_keywords() WHERE catcode <> 'U' ORDER BY word;
var reservedKeywords = map[string]bool{
	"all": true, "analyse": true, "analyze": true, "and": true, "any": true, "array": true,
	"as": true, "asc": true, "asymmetric": true, "authorization": true, "between": true,
	"bigint": true, "binary": true, "bit": true, "boolean": true, "both": true, "case": true,
	"cast": true, "char": true, "character": true, "check": true, "coalesce": true, "collate": true,
	"collation": true, "column": true, "concurrently": true, "constraint": true, "create": true,
	"cross": true, "current_catalog": true, "current_date": true, "current_role": true,
	"current_schema": true, "current_time": true, "current_timestamp": true, "current_user": true,
	"dec": true, "decimal": true, "default": true, "deferrable": true, "desc": true, "distinct": true,
	"do": true, "else": true, "end": true, "except": true, "exists": true, "extract": true,
	"false": true, "fetch": true, "float": true, "for": true, "foreign": true, "freeze": true,
	"from": true, "full": true, "grant": true, "greatest": true, "group": true, "grouping": true,
	"having": true, "ilike": true, "in": true, "initially": true, "inner": true, "inout": true,
	"int": true, "integer": true, "intersect": true, "interval": true, "into": true, "is": true,
	"isnull": true, "join": true, "lateral": true, "leading": true, "least": true, "left": true,
	"like": true, "limit": true, "localtime": true, "localtimestamp": true, "national": true,
	"natural": true, "nchar": true, "none": true, "normalize": true, "not": true, "notnull": true,
	"null": true, "nullif": true, "numeric": true, "offset": true, "on": true, "only": true,
	"or": true, "order": true, "out": true, "outer": true, "overlaps": true, "overlay": true,
	"placing": true, "position": true, "precision": true, "primary": true, "real": true,
	"references": true, "returning": true, "right": true, "row": true, "select": true,
	"session_user": true, "setof": true, "similar": true, "smallint": true, "some": true,
	"substring": true, "symmetric": true, "table": true, "tablesample": true, "then": true,
	"time": true, "timestamp": true, "to": true, "trailing": true, "treat": true, "trim": true,
	"true": true, "union": true, "unique": true, "user": true, "using": true, "values": true,
	"varchar": true, "variadic": true, "verbose": true, "when": true, "where": true, "window": true,
	"with": true, "xmlattributes": true, "xmlconcat": true, "xmlelement": true, "xmlexists": true,
	"xmlforest": true, "xmlnamespaces": true, "xmlparse": true, "xmlpi": true, "xmlroot": true,
	"xmlserialize": true, "xmltable": true,
}
