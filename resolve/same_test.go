package resolve

import "testing"

// An object read again is the same when read from the same document at
// the same place, whatever else the file holds; any change to a value, a
// place or an ignore comment makes it another. The objects the same keep
// their place (KeepSame); the others are the new ones.
func TestKeepSame(t *testing.T) {
	const svc = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: apps}\nspec:\n  ports: [{port: 80}]\n"
	const route = "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: shop, namespace: apps}\nspec:\n  rules: [{backendRefs: [{name: web, port: 80}]}]\n"
	load := func(text string) *Inputs { return LoadData("svc.yaml", []byte(text), Options{}) }
	base := load(svc + "---\n" + route)
	for _, tt := range []struct {
		name, text string
		same       []bool // each object of text kept
	}{
		{"the same text", svc + "---\n" + route, []bool{true, true}},
		{"a comment after them", svc + "---\n" + route + "# later\n", []bool{true, true}},
		{"a broken document after them", svc + "---\n" + route + "---\nkind: [\n", []bool{true, true}},
		{"a document added after them", svc + "---\n" + route + "---\n" + route[:len(route)-9] + "81}]}]\n", []bool{true, true, false}},
		{"the route changed", svc + "---\n" + route[:len(route)-9] + "81}]}]\n", []bool{true, false}},
		{"a value changed", svc[:len(svc)-5] + "81}]\n---\n" + route, []bool{false, true}},
		{"a number written otherwise", svc[:len(svc)-5] + "80.0}]\n---\n" + route, []bool{false, true}}, // no int32
		{"moved down a line", "\n" + svc + "---\n" + route, []bool{false, false}},
		{"keys reordered", "kind: Service\napiVersion: v1\nmetadata: {name: web, namespace: apps}\nspec:\n  ports: [{port: 80}]\n---\n" + route, []bool{false, true}},
		{"an ignore comment", "# gwlint:ignore backend-not-found -- why\n" + svc + "---\n" + route, []bool{false, false}},
	} {
		in := load(tt.text)
		in.KeepSame(base)
		if len(in.Objects) != len(tt.same) {
			t.Fatalf("%s: %d objects, want %d", tt.name, len(in.Objects), len(tt.same))
		}
		for i, obj := range in.Objects {
			if kept := i < len(base.Objects) && obj == base.Objects[i]; kept != tt.same[i] {
				t.Errorf("%s: object %d (%s) kept %v, want %v", tt.name, i, obj.Metadata().Ref, kept, tt.same[i])
			}
		}
	}
	// Not read from a document: no digest to tell.
	made := &Inputs{Objects: []Object{&Service{}}}
	again := &Inputs{Objects: []Object{&Service{}}}
	if again.KeepSame(made); again.Objects[0] == made.Objects[0] {
		t.Error("an object without a digest is the same as another")
	}
}
