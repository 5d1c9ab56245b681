package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// decodedEqual is what documentDigest stands for: two documents that a
// json.Decoder with UseNumber decodes into equal values.
func decodedEqual(a, b []byte) bool {
	x, errX := decodeWithNumbers(a)
	y, errY := decodeWithNumbers(b)
	return errX == nil && errY == nil && reflect.DeepEqual(x, y)
}

func decodeWithNumbers(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one value")
	}
	return v, nil
}

// largeObject is an object of n members k0…k(n-1) holding their index,
// written in reverse with reversed, and with repeated, its first member
// written first with another value, then again last with its own.
func largeObject(n int, reversed, repeated bool) string {
	var b strings.Builder
	b.WriteString("{")
	if repeated {
		b.WriteString(`"k0":"first",`)
	}
	for i := range n {
		j := i
		if reversed {
			j = n - 1 - i
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":%d`, j, j)
	}
	if repeated {
		b.WriteString(`,"k0":0`)
	}
	b.WriteString("}")
	return b.String()
}

func sameDigest(a, b []byte) bool {
	da := digestOf(a)
	return da != (documentDigest{}) && da == digestOf(b)
}

func TestDigestAtTheEdges(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`{"a":1,"b":{"c":[1,"x"]}}`, "{ \"b\" : {\"c\":[1, \"x\"]},\n\"a\":1 }", true},
		{`{"a":1,"a":2}`, `{"a":2}`, true}, // the last of a repeated key
		{`{"a":1,"b":2,"a":3}`, `{"b":2,"a":1}`, false},
		// Numbers as written: 80.0 is no int32, where 80 is.
		{`80`, `80.0`, false},
		{`100`, `1e2`, false},
		{`-0`, `0`, false},
		{`-0`, `-0`, true},
		{`"\u0041\n"`, `"A\n"`, true},
		{"\"\xff\"", `"\ufffd"`, true}, // invalid UTF-8 decodes to U+FFFD
		{`"é"`, `"\u00e9"`, true},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":"1"}`, `{"a":1}`, false},
		{`{"a":null}`, `{}`, false},
		{`{"a":[]}`, `{"a":{}}`, false},
		{`{"ab":"c"}`, `{"a":"bc"}`, false},
		{`["ab","c"]`, `["a","bc"]`, false},
		{`{"a":true}`, `{"a":false}`, false},
		{`1e400`, `1e400`, true}, // beyond float64, but JSON
		{`01`, `01`, false},      // not JSON
		{`{"a":1`, `{"a":1`, false},
		{`{"\u0061":1,"b":2}`, `{"b":2,"a":1}`, true}, // an escaped key
		{`{"a":{"b":1},"c":[{"d":2}]}`, `{"c":[{"d":2}],"a":{"b":1}}`, true},
		{`{"a":{"b":1}}`, `{"a":{"b":1},"b":{}}`, false},
		{`[{"a":1},{"b":2}]`, `[{"b":2},{"a":1}]`, false},
		{`[[1],[2]]`, `[[1,2]]`, false},
		// Objects past the size searched member by member, with a
		// repeated key.
		{largeObject(40, false, false), largeObject(40, true, false), true},
		{largeObject(40, false, true), largeObject(40, true, false), true},
		{largeObject(40, false, false), largeObject(41, false, false), false},
	} {
		if got := decodedEqual([]byte(c.a), []byte(c.b)); got != c.same {
			t.Fatalf("the test is wrong: %s and %s decode equal: %v", c.a, c.b, got)
		}
		if got := sameDigest([]byte(c.a), []byte(c.b)); got != c.same {
			t.Errorf("%s and %s: same digest %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

// TestDigestOnFixtures checks, on every document of the repository's
// fixtures (the duplicates among them written in another key order), that
// documents get the same digest exactly when they decode equal: grouped by
// their decoding re-encoded (encoding/json sorts keys), each group has one
// digest and no digest is shared across groups.
func TestDigestOnFixtures(t *testing.T) {
	objs, _ := manifest.Read([]string{"testdata", "../testdata", "../lint/testdata", "../cmd/gwlint/testdata", "../cmd/gwctl/testdata"}, nil)
	byValue := map[string]documentDigest{}
	byDigest := map[documentDigest][]byte{}
	rewritten := 0 // pairs that decode equal from different bytes
	for _, o := range objs {
		v, err := decodeWithNumbers(o.JSON)
		if err != nil {
			t.Fatalf("%s: %v", o.Source.File, err)
		}
		value, _ := json.Marshal(v)
		d := digestOf(o.JSON)
		if d == (documentDigest{}) {
			t.Fatalf("%s:%d: no digest", o.Source.File, o.Source.Pos.Line)
		}
		if first, ok := byValue[string(value)]; ok && first != d {
			t.Errorf("%s:%d: decodes as an earlier document but has another digest", o.Source.File, o.Source.Pos.Line)
		}
		byValue[string(value)] = d
		if first, ok := byDigest[d]; ok {
			if !decodedEqual(first, o.JSON) {
				t.Errorf("%s:%d: the digest of a different document", o.Source.File, o.Source.Pos.Line)
			}
			if !bytes.Equal(first, o.JSON) {
				rewritten++
			}
		}
		byDigest[d] = o.JSON
	}
	t.Logf("%d documents, %d equal as rewritten", len(objs), rewritten)
	if len(objs) < 500 || rewritten == 0 {
		t.Errorf("%d documents, %d equal as rewritten: the fixtures no longer test the digest", len(objs), rewritten)
	}
}
