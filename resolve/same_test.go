package resolve

import "testing"

// Objects are the same when read from the same documents at the same
// places, whatever else the file holds; any change to a value, a place or
// an ignore comment makes them others.
func TestSameObjects(t *testing.T) {
	const svc = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: apps}\nspec:\n  ports: [{port: 80}]\n"
	load := func(text string) *Inputs { return LoadData("svc.yaml", []byte(text), Options{}) }
	base := load(svc)
	for _, tt := range []struct {
		name, text string
		same       bool
	}{
		{"the same text", svc, true},
		{"a comment after it", svc + "# later\n", true},
		{"a broken document after it", svc + "---\nkind: [\n", true},
		{"a value changed", svc[:len(svc)-5] + "81}]\n", false},
		{"a number written otherwise", svc[:len(svc)-5] + "80.0}]\n", false}, // no int32
		{"moved down a line", "\n" + svc, false},
		{"keys reordered", "kind: Service\napiVersion: v1\nmetadata: {name: web, namespace: apps}\nspec:\n  ports: [{port: 80}]\n", false},
		{"an ignore comment", "# gwlint:ignore backend-not-found -- why\n" + svc, false},
		{"another document after it", svc + "---\n" + svc[:len(svc)-5] + "81}]\n", false},
	} {
		if got := SameObjects(base, load(tt.text)); got != tt.same {
			t.Errorf("%s: SameObjects = %v, want %v", tt.name, got, tt.same)
		}
	}
	// Not read from a document: no digest to tell.
	made := &Inputs{Objects: []Object{&Service{}}}
	if SameObjects(made, made) {
		t.Error("an object without a digest is the same as itself")
	}
}
