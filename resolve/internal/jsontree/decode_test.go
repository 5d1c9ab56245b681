package jsontree

import (
	"encoding/json"
	"hash/maphash"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/internal/corpus"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// kitchenSink has a field of each kind of encoding/json's rules Decode
// follows or leaves to it.
type kitchenSink struct {
	Embedded
	*EmbeddedPtr
	embeddedHidden
	Shadowed  string `json:"shadowed"`
	S         string
	Tagged    int8    `json:"tagged,omitempty"`
	U         uint16  `json:"u"`
	F         float32 `json:"f"`
	B         bool    `json:"b"`
	P         *string `json:"p"`
	PP        **int   `json:"pp"`
	L         []string
	Bytes     []byte             `json:"bytes"`
	M         map[string]int     `json:"m"`
	Named     map[Key]Key        `json:"named"`
	Labels    map[string]string  `json:"labels"`
	Any       any                `json:"any"`
	Raw       json.RawMessage    `json:"raw"`
	Num       json.Number        `json:"num"`
	Time      metav1.Time        `json:"time"`
	TimeP     *metav1.Time       `json:"timeP"`
	IntOrStr  intstr.IntOrString `json:"ios"`
	Quantity  *resource.Quantity `json:"q"`
	Duration  metav1.Duration    `json:"d"`
	Quoted    int                `json:"quoted,string"`
	Skipped   string             `json:"-"`
	Array     [2]int             `json:"array"`
	IntKeys   map[int]string     `json:"intKeys"`
	unexp     string
	Recursive *kitchenSink `json:"rec"`
	Spec      any          `json:"spec"` // holds a *kitchenSink: decoded through
}

type Key string

type Embedded struct {
	E        string `json:"e"`
	Shadowed string `json:"shadowed"`
}

type EmbeddedPtr struct {
	EP string `json:"ep"`
}

type embeddedHidden struct {
	H string `json:"h"`
}

// Decode reads what encoding/json reads, and leaves to it what it cannot
// be sure to read the same way.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	decoded := []string{
		`{}`,
		`{"e":"x","shadowed":"y","ep":"z","h":"w","S":"s","tagged":-128,"u":65535,"f":1.5,"b":true,"p":"p","pp":3,"L":["a","b"],"bytes":"aGVsbG8=","m":{"a":1},"named":{"k":"v"}}`,
		`{"any":{"a":[1,"b",null,true,{"c":2.5}]},"raw":"x","num":12.5e3,"time":"2025-07-01T20:47:53Z","timeP":"2025-07-01T20:47:53Z","ios":"http","q":"100m","d":"1m"}`,
		`{"ios":8080,"raw":123,"time":null,"timeP":null,"p":null,"L":null,"m":null,"S":null,"tagged":null,"any":null}`,
		`{"rec":{"rec":{"S":"deep","L":[]}},"unexp":"u","Skipped":"no","-":"no","unknown":{"x":1}}`,
		`{"bytes":[1,2]}`, `{"labels":{"a":"b","n":null},"named":{"k":null}}`,
		`{"spec":{"S":"into the pointer"}}`, `{"spec":null}`,
	}
	leftToJSON := []string{
		// A key matching a field only case-insensitively, or twice.
		`{"s":"fold"}`, `{"SHADOWED":"fold"}`, `{"S":"a","s":"b"}`, `{"S":"a","S":"b"}`, `{"m":{"a":1},"m":{"b":2}}`,
		// What encoding/json refuses.
		`{"tagged":128}`, `{"tagged":1.5}`, `{"u":-1}`, `{"f":1e39}`, `{"S":1}`, `{"b":"true"}`, `{"L":{}}`, `{"m":[]}`,
		`{"ios":{"a":1}}`, `{"labels":{"a":1}}`, `{"time":"yesterday"}`, `{"bytes":"!"}`, `{"any":1e400}`,
		// What Decode does not do.
		`{"quoted":"1"}`, `{"array":[1,2]}`, `{"intKeys":{"1":"a"}}`, `{"raw":{"a":1}}`, `{"raw":"e\u0073c"}`, `{"num":"1"}`,
	}
	for _, doc := range append(decoded, leftToJSON...) {
		want, got := &kitchenSink{Spec: &kitchenSink{}}, &kitchenSink{Spec: &kitchenSink{}}
		err := json.Unmarshal([]byte(doc), want)
		tree, ok := Parse([]byte(doc))
		if !ok {
			t.Fatalf("%s: not parsed", doc)
		}
		switch {
		case !tree.Decode(tree.Root, got):
			if slices.Contains(decoded, doc) {
				t.Errorf("%s: left to encoding/json (error %v)", doc, err)
			}
		case slices.Contains(leftToJSON, doc):
			t.Errorf("%s: decoded, want it left to encoding/json", doc)
		case err != nil:
			t.Errorf("%s: decoded, but encoding/json fails: %v", doc, err)
		case !reflect.DeepEqual(got, want):
			t.Errorf("%s:\n got %+v\nwant %+v", doc, got, want)
		}
		tree.Release()
	}
}

// Decode must not leave the Gateway API's objects to encoding/json: the
// generated corpus's HTTPRoutes and Gateways all decode from the tree.
func TestDecodeReadsTheGatewayAPI(t *testing.T) {
	raws, _ := manifest.Read([]string{benchutil.Corpus(t, corpus.Small)}, nil)
	specs := map[string]reflect.Type{
		"HTTPRoute": reflect.TypeFor[gwv1.HTTPRouteSpec](),
		"Gateway":   reflect.TypeFor[gwv1.GatewaySpec](),
	}
	decoded := 0
	for _, raw := range raws {
		typ := specs[raw.Kind]
		if typ == nil {
			continue
		}
		tree, ok := Parse(raw.JSON)
		if !ok {
			t.Fatalf("%s: not parsed", raw.Source.File)
		}
		for _, part := range []struct {
			node any
			typ  reflect.Type
		}{{tree.Root["metadata"], reflect.TypeFor[metav1.ObjectMeta]()}, {tree.Root["spec"], typ}} {
			got, want := reflect.New(part.typ), reflect.New(part.typ)
			js, _ := json.Marshal(part.node)
			if err := json.Unmarshal(js, want.Interface()); err != nil {
				t.Fatal(err)
			}
			if !tree.Decode(part.node, got.Interface()) {
				t.Errorf("%s: %s %s left to encoding/json", raw.Source.File, raw.Kind, part.typ)
			} else if !reflect.DeepEqual(got.Interface(), want.Interface()) {
				t.Errorf("%s: %s decodes differently", raw.Source.File, part.typ)
			}
		}
		tree.Release()
		decoded++
	}
	if decoded < 100 {
		t.Fatalf("only %d routes and Gateways in the corpus", decoded)
	}
}

// FuzzDecode: what Decode decodes, encoding/json decodes the same.
func FuzzDecode(f *testing.F) {
	f.Add(`{"e":"x","shadowed":"y","ep":"z","L":["a"],"m":{"a":1},"any":[1,{"b":null}],"ios":80,"q":"1Gi","rec":{"S":"s"}}`)
	f.Add(`{"spec":{"parentRefs":[{"name":"gw","port":80}],"rules":[{"backendRefs":[{"name":"s","port":8080}]}]}}`)
	f.Add(`{"s":"fold","tagged":300,"raw":{"a":1}}`)
	targets := []reflect.Type{reflect.TypeFor[kitchenSink](), reflect.TypeFor[gwv1.HTTPRoute](), reflect.TypeFor[gwv1.Gateway]()}
	f.Fuzz(func(t *testing.T, doc string) {
		tree, ok := Parse([]byte(doc))
		if !ok {
			return
		}
		defer tree.Release()
		for _, typ := range targets {
			got, want := reflect.New(typ), reflect.New(typ)
			if !tree.Decode(tree.Root, got.Interface()) {
				continue
			}
			if err := json.Unmarshal([]byte(doc), want.Interface()); err != nil {
				t.Fatalf("%s: decoded as %s, but encoding/json fails: %v", doc, typ, err)
			}
			if !reflect.DeepEqual(got.Interface(), want.Interface()) {
				t.Fatalf("%s: decoded as %s:\n got %+v\nwant %+v", doc, typ, got.Elem(), want.Elem())
			}
		}
	})
}

// TestDecodedStringsAreCopies: a decoded string holds none of the parsed
// data, and the table Decode copies through keeps one copy of each string.
func TestDecodedStringsAreCopies(t *testing.T) {
	type meta struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	}
	data := []byte(`{"name":"store","namespace":"team-a"}`)
	tree, ok := Parse(data)
	if !ok {
		t.Fatal("Parse failed")
	}
	defer tree.Release()
	var m meta
	if !tree.Decode(tree.Root, &m) {
		t.Fatal("Decode handed back")
	}
	clear(data)
	if m != (meta{"store", "team-a"}) {
		t.Errorf("decoded %+v", m)
	}
	st := stringTables.New().(*stringTable)
	a, b := st.share(strings.Clone("team-a")), st.share(strings.Clone("team-a"))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("share gave two copies of %q", a)
	}
}

// The table is a fixed number of slots: a long string is copied and kept
// in none, and a string that lost its slot to another is copied again,
// then shared from its slot again.
func TestStringTableSlots(t *testing.T) {
	st := stringTables.New().(*stringTable)
	long := strings.Repeat("x", maxSharedLen+1)
	if a, b := st.share(long), st.share(long); unsafe.StringData(a) == unsafe.StringData(b) || slices.Contains(st.slots[:], long) {
		t.Errorf("a string of %d bytes was kept", len(long))
	}
	slot := func(s string) uint64 { return maphash.String(st.seed, s) & (sharedSlots - 1) }
	rival := ""
	for i := 0; rival == ""; i++ {
		if s := strconv.Itoa(i); slot(s) == slot("team-a") {
			rival = s
		}
	}
	first := st.share(strings.Clone("team-a"))
	st.share(rival)
	again, shared := st.share(strings.Clone("team-a")), st.share(strings.Clone("team-a"))
	if unsafe.StringData(again) == unsafe.StringData(first) || unsafe.StringData(shared) != unsafe.StringData(again) {
		t.Errorf("after %q took its slot, %q was not copied once and shared after", rival, "team-a")
	}
}
