package types

import "testing"

// The scan must agree with the tree lookup on every member of every
// document, and on keys that are absent.
func TestJSONBFieldScanMatchesTree(t *testing.T) {
	docs := []string{
		`{"a": 1, "b": "x\"y\u00e9", "c": null, "d": {"e": [1, {"f": "]"}], "g": {}}, "h": [], "i": true, "j": -1.50e3}`,
		`{}`, `[1, 2]`, `"s"`, `3`, `null`, `{"": "empty", "a\\b": [[[]]]}`,
	}
	keys := []string{"a", "b", "c", "d", "e", "h", "i", "j", "", "a\\b", "zz"}
	for _, in := range docs {
		tree, err := parseJSONBText(in)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		stored := jsonbText(tree)
		doc := jsonbTree(stored)
		for _, k := range keys {
			for _, text := range []bool{false, true} {
				got, ok := jsonbFieldByKey(stored, k, text)
				var want Value
				if e := objectField(doc, k); e == nil {
					want = NullValue
				} else if text {
					want = jsonOutText(e, JSONB)
				} else {
					want = jsonOut(e, JSONB)
				}
				if doc.Kind != jsonObject {
					if ok {
						t.Errorf("%s %q: scan answered a non-object", stored, k)
					}
					continue
				}
				if !ok || got.Null != want.Null || got.S != want.S {
					t.Errorf("%s ->(text=%v) %q: scan %+v (ok %v), tree %+v", stored, text, k, got, ok, want)
				}
			}
		}
	}
}
