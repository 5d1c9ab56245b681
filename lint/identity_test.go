package lint

import "testing"

func TestIdentity(t *testing.T) {
	a := Finding{Rule: "r", Object: "HTTPRoute a/b", Path: "spec", Message: "defined at x.yaml:3:1 and port :8080",
		Position: Position{File: "x.yaml", Line: 3, Col: 1}}
	b := a
	b.Line, b.Message = 9, "defined at x.yaml:12:1 and port :8080"
	if a.Identity() != b.Identity() {
		t.Errorf("moved lines change the identity: %q, %q", a.Identity(), b.Identity())
	}
	c := a
	c.Message = "defined at x.yaml:3:1 and port :8081"
	if a.Identity() == c.Identity() {
		t.Error("a port number in the message is ignored")
	}
	r := Finding{Position: Position{File: "/tmp/t/x.yaml"}, Message: "see /tmp/t/x.yaml:1:1",
		Related: []Related{{Position: Position{File: "/tmp/t/y.yaml"}}}}
	got := r.Relabel(func(f string) string { return f[len("/tmp/t/"):] })
	if got.File != "x.yaml" || got.Message != "see x.yaml:1:1" || got.Related[0].File != "y.yaml" || r.Related[0].File != "/tmp/t/y.yaml" {
		t.Errorf("Relabel: %+v (original %+v)", got, r)
	}
}
