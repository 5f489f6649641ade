package sqlfuzz

// jsonPool is the pool of json and jsonb values: every kind, nesting,
// repeated keys, numbers that differ only in scale, escapes.
var jsonPool = []string{`null`, `true`, `false`, `0`, `-1.50`, `1e2`, `"a"`, `""`, `"a\"b\\c"`, `[]`, `{}`,
	`[1, 2, 3]`, `[1.0, "x", null]`, `{"a": 1}`, `{"a": 1.0}`, `{"b": [1, {"c": null}], "a": "x"}`,
	`{"a": 1, "a": 2}`, `[[], {}]`, `{"aa": 1, "b": 2}`}

// jsonpathPool is the pool of jsonpath values (the jsonb_path_* functions'
// and @? / @@'s paths): lax and strict, accessors, filters, item methods,
// arithmetic, and paths that raise errors in strict mode.
var jsonpathPool = []string{`$`, `$.a`, `strict $.a`, `$[*]`, `$[0 to last]`, `$.*`, `$.**`, `$.**{1 to 2}`,
	`$ ? (@ > 1)`, `$[*] ? (@ == "a" || @ == null)`, `$.a ? (exists (@.b))`, `$.type()`, `$.size()`,
	`$[*].double()`, `strict $[1]`, `$ + 1`, `$.a like_regex "^a" flag "i"`, `$ == 1`, `$.a starts with "x"`}
