package fidelity

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/internal/statusdiff"
	"sigs.k8s.io/yaml"
)

func mustObject(t *testing.T, doc string) *statusdiff.Object {
	t.Helper()
	data, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	o, err := statusdiff.DecodeObject(data)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func outcomeStrings(os []Outcome) []string {
	var out []string
	for _, o := range os {
		s := string(o.Scope) + " " + o.Where + " " + o.Type + " want " + o.Want + " got " + o.Got
		if o.NonTrivial {
			s += " (non-trivial)"
		}
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func TestCompareRouteParents(t *testing.T) {
	// The implementation writes the parentRef as the user did and keeps
	// another controller's entry; gwctl writes it defaulted.
	want := mustObject(t, `
kind: HTTPRoute
metadata: {name: r, namespace: app}
status:
  parents:
  - parentRef: {name: gw, namespace: infra}
    controllerName: example.com/impl
    conditions:
    - {type: Accepted, status: "False", reason: NotAllowedByListeners, lastTransitionTime: fake}
    - {type: ResolvedRefs, status: "True", reason: ResolvedRefs}
  - parentRef: {name: other}
    controllerName: example.com/someone-else
    conditions:
    - {type: Accepted, status: "True", reason: Accepted}
`)
	got := mustObject(t, `
kind: HTTPRoute
metadata: {name: r, namespace: app}
status:
  parents:
  - parentRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw, namespace: infra}
    controllerName: example.com/impl
    conditions:
    - {type: Accepted, status: "False", reason: NoMatchingListenerHostname}
    - {type: ResolvedRefs, status: "True", reason: ResolvedRefs}
`)
	os := Compare("case", []*statusdiff.Object{want}, []*statusdiff.Object{got}, []string{"example.com/impl"})
	wantOut := []string{
		"route parent Gateway infra/gw Accepted want False/NotAllowedByListeners got False/NoMatchingListenerHostname (non-trivial)",
		"route parent Gateway infra/gw ResolvedRefs want True/ResolvedRefs got True/ResolvedRefs",
	}
	if got := outcomeStrings(os); strings.Join(got, "\n") != strings.Join(wantOut, "\n") {
		t.Errorf("outcomes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantOut, "\n"))
	}
}

func TestCompareGateway(t *testing.T) {
	// The implementation does not write Conflicted or the Gateway's
	// ResolvedRefs (no prediction of its), nor the listener's Accepted on a
	// conflict; it writes no status for listener "gone", and gwctl none for
	// listener "new". gwctl does not write OverlappingTLSConfig, which the
	// implementation reports as a problem.
	want := mustObject(t, `
kind: Gateway
metadata: {name: gw, namespace: infra}
status:
  conditions:
  - {type: Accepted, status: "True", reason: Accepted}
  listeners:
  - name: a
    attachedRoutes: 1
    supportedKinds: [{group: gateway.networking.k8s.io, kind: HTTPRoute}, {kind: GRPCRoute}]
    conditions:
    - {type: Programmed, status: "False", reason: Invalid}
    - {type: OverlappingTLSConfig, status: "True", reason: OverlappingHostnames}
  - name: new
    conditions:
    - {type: Accepted, status: "True", reason: Accepted}
`)
	got := mustObject(t, `
kind: Gateway
metadata: {name: gw, namespace: infra}
status:
  conditions:
  - {type: Accepted, status: "True", reason: Accepted}
  - {type: ResolvedRefs, status: "False", reason: ListenersNotResolved}
  listeners:
  - name: a
    attachedRoutes: 0
    supportedKinds: [{group: gateway.networking.k8s.io, kind: GRPCRoute}, {group: gateway.networking.k8s.io, kind: HTTPRoute}]
    conditions:
    - {type: Accepted, status: "False", reason: HostnameConflict}
    - {type: Conflicted, status: "True", reason: HostnameConflict}
    - {type: Programmed, status: "False", reason: HostnameConflict}
  - name: gone
    conditions:
    - {type: Accepted, status: "True", reason: Accepted}
`)
	os := Compare("case", []*statusdiff.Object{want}, []*statusdiff.Object{got}, nil)
	wantOut := []string{
		"Gateway  Accepted want True/Accepted got True/Accepted",
		"Gateway listener a OverlappingTLSConfig want True/OverlappingHostnames got absent (non-trivial)",
		"Gateway listener a Programmed want False/Invalid got False/HostnameConflict (non-trivial)",
		"Gateway listener a attachedRoutes want 1 got 0",
		"Gateway listener a supportedKinds want GRPCRoute,HTTPRoute got GRPCRoute,HTTPRoute",
		"Gateway listener gone Accepted want no status got True/Accepted (non-trivial)",
		"Gateway listener new Accepted want True/Accepted got no status",
	}
	if got := outcomeStrings(os); strings.Join(got, "\n") != strings.Join(wantOut, "\n") {
		t.Errorf("outcomes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantOut, "\n"))
	}
	var tally Tally
	tally.Add(&Result{Outcomes: os})
	if tally.Outcomes != 5 || tally.Agree != 1 || tally.NonTrivial != 3 || tally.NonTrivialVerdict != 1 || tally.Details != 2 || tally.DetailsAgree != 1 {
		t.Errorf("tally = %+v", tally)
	}
}

func TestEnvoyGatewayObjects(t *testing.T) {
	objs, err := egObjects([]byte(`
gatewayClass:
  metadata: {name: eg}
  spec: {controllerName: example.com/eg}
gateways:
- metadata: {name: gw, namespace: infra}
  spec: {gatewayClassName: eg}
tlsRoutes:
- apiVersion: gateway.networking.k8s.io/v1
  kind: TLSRoute
  metadata: {name: r}
xdsIR:
  infra/gw: {}
`))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range objs {
		ids = append(ids, m["apiVersion"].(string)+" "+identity(m))
	}
	want := "gateway.networking.k8s.io/v1 GatewayClass eg|gateway.networking.k8s.io/v1 Gateway infra/gw|gateway.networking.k8s.io/v1 TLSRoute default/r"
	if got := strings.Join(ids, "|"); got != want {
		t.Errorf("objects = %s, want %s", got, want)
	}
}

func TestWantedDropsCarriedConditions(t *testing.T) {
	route := func(conds string) manifest {
		var m manifest
		if err := yaml.Unmarshal([]byte(`
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
status:
  parents:
  - parentRef: {name: gw}
    controllerName: example.com/impl
    conditions: `+conds), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	in := route(`[{type: dummy, status: "True", reason: dummy}]`)
	out := route(`[{type: dummy, status: "True", reason: dummy}, {type: Accepted, status: "True", reason: Accepted}]`)
	objs, err := wanted([]manifest{out}, []manifest{in})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(objs[0].Status.Parents[0].Conditions)
	if got, want := string(data), `[{"type":"Accepted","status":"True","reason":"Accepted"}]`; got != want {
		t.Errorf("conditions = %s, want %s", got, want)
	}
}

// TestRun runs a case end to end through resolve: a route refused by a
// listener that admits only its own namespace, in the implementation's
// own status words.
func TestRun(t *testing.T) {
	p := &Project{Name: "test", Controllers: []string{"example.com/impl"}}
	objs := []manifest{}
	for _, doc := range []string{
		`{apiVersion: gateway.networking.k8s.io/v1, kind: Gateway, metadata: {name: gw, namespace: infra},
		  spec: {gatewayClassName: impl, listeners: [{name: http, port: 80, protocol: HTTP}]}}`,
		`{apiVersion: gateway.networking.k8s.io/v1, kind: HTTPRoute, metadata: {name: r, namespace: app},
		  spec: {parentRefs: [{name: gw, namespace: infra}]}}`,
		`{apiVersion: gateway.networking.k8s.io/v1alpha1, kind: HTTPRoute, metadata: {name: old, namespace: app},
		  spec: {parentRefs: [{name: gw, namespace: infra}]}}`,
	} {
		var m manifest
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, m)
	}
	inputs, err := inputs(objs, []manifest{gatewayClass("impl", "example.com/impl")})
	if err != nil {
		t.Fatal(err)
	}
	c := &Case{Name: "refused", Inputs: inputs, Want: []*statusdiff.Object{
		mustObject(t, `
kind: Gateway
metadata: {name: gw, namespace: infra}
status:
  conditions: [{type: Accepted, status: "True", reason: Accepted}]
  listeners:
  - name: http
    attachedRoutes: 0
    conditions: [{type: Accepted, status: "True", reason: Accepted}]
`),
		mustObject(t, `
kind: HTTPRoute
metadata: {name: r, namespace: app}
status:
  parents:
  - parentRef: {name: gw, namespace: infra}
    controllerName: example.com/impl
    conditions: [{type: Accepted, status: "False", reason: NotAllowedByListeners}]
`),
		mustObject(t, `
kind: HTTPRoute
metadata: {name: old, namespace: app}
status:
  parents:
  - parentRef: {name: gw, namespace: infra}
    controllerName: example.com/impl
    conditions: [{type: Accepted, status: "False", reason: NotAllowedByListeners}]
`),
	}}
	res := p.Run(c)
	if len(res.ReadErrors) != 1 {
		t.Errorf("read errors = %q, want the one of HTTPRoute v1alpha1", res.ReadErrors)
	}
	var bad []string
	for _, o := range res.Outcomes {
		if o.Object == "HTTPRoute app/old" {
			if !strings.HasPrefix(o.Got, "not loaded (HTTPRoute gateway.networking.k8s.io/v1alpha1 is not served") {
				bad = append(bad, "unread route: got "+o.Got)
			}
			continue
		}
		if !o.Agree() {
			bad = append(bad, o.Category())
		}
	}
	if len(bad) > 0 {
		t.Errorf("disagreements:\n%s", strings.Join(bad, "\n"))
	}
}

func TestEnvoyGatewayUncreatedNamespaces(t *testing.T) {
	objs, err := egObjects([]byte(`
namespaces:
- metadata: {name: app}
httpRoutes:
- metadata: {name: created, namespace: app}
- metadata: {name: uncreated, namespace: elsewhere}
- metadata: {name: defaulted}
gateways:
- metadata: {name: gw, namespace: elsewhere}
`))
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(egUncreatedNamespaces(objs, envoyGatewayWorld())))
	want := []string{EnvironmentKey("HTTPRoute elsewhere/uncreated", ScopeRouteParent, "", "Accepted")}
	if !slices.Equal(got, want) {
		t.Errorf("environment outcomes = %q, want %q", got, want)
	}
}
