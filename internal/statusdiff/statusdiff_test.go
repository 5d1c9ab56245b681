package statusdiff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
)

// world writes a status of every kind resolve writes one for: a
// GatewayClass, a Gateway and a ListenerSet with listeners, a route with a
// parent by section and a mesh route with a parent by port, and a
// BackendTLSPolicy with an ancestor.
const world = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: example}
spec: {controllerName: example.com/gateway}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: example
  allowedListeners: {namespaces: {from: All}}
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: extra, namespace: infra}
spec:
  parentRef: {name: edge}
  listeners:
  - {name: tcp, protocol: TCP, port: 9000}
---
apiVersion: v1
kind: Service
metadata: {name: shop, namespace: app}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra, sectionName: http}]
  rules: [{backendRefs: [{name: shop, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: mesh, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: shop, port: 80}]
  rules: [{backendRefs: [{name: shop, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: shop-tls, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: shop}]
  validation: {wellKnownCACertificates: System, hostname: shop.example.com}
`

func statuses(t *testing.T) []resolve.StatusObject {
	t.Helper()
	in := resolve.Load([]string{"-"}, strings.NewReader(world), resolve.Options{})
	if len(in.Errors) > 0 {
		t.Fatal(in.Errors)
	}
	return resolve.Resolve(in, resolve.Options{}).Statuses()
}

// ObjectOf reads gwlint's typed status as DecodeObject reads the same
// status printed as JSON (gwctl status), where it says anything: an empty
// list is no list.
func TestObjectOfReadsAsDecodeObject(t *testing.T) {
	kinds := map[string]bool{}
	for _, so := range statuses(t) {
		kinds[so.Kind] = true
		data, err := json.Marshal(so)
		if err != nil {
			t.Fatal(err)
		}
		want, err := DecodeObject(data)
		if err != nil {
			t.Fatal(err)
		}
		if got := ObjectOf(so); !reflect.DeepEqual(withoutEmpty(got), withoutEmpty(want)) {
			t.Errorf("%s:\nObjectOf     %s\nDecodeObject %s", want.ID(), show(got), show(want))
		}
	}
	for _, k := range []string{"GatewayClass", "Gateway", "ListenerSet", "HTTPRoute", "BackendTLSPolicy"} {
		if !kinds[k] {
			t.Errorf("no status of a %s: the world no longer covers the kind", k)
		}
	}
}

func withoutEmpty(o *Object) *Object {
	c := *o
	st := &c.Status
	st.Conditions = nilIfEmpty(st.Conditions)
	st.Listeners = nilIfEmpty(st.Listeners)
	for i := range st.Listeners {
		st.Listeners[i].SupportedKinds = nilIfEmpty(st.Listeners[i].SupportedKinds)
	}
	st.Parents = nilIfEmpty(st.Parents)
	st.Ancestors = nilIfEmpty(st.Ancestors)
	return &c
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

func show(o *Object) string {
	data, _ := json.Marshal(o)
	return string(data)
}

// Pairs matches a parentRef written as the user did with the same one
// written defaulted, and a listener only one side writes with nothing.
func TestPairs(t *testing.T) {
	accepted := Cond{Type: "Accepted", Status: "True", Reason: "Accepted"}
	before := &Object{Kind: "Gateway", Namespace: "infra", Name: "gw", Status: Status{
		Conditions: []Cond{accepted},
		Listeners:  []ListenerEntry{{Name: "a", Conditions: []Cond{accepted}}},
	}}
	after := &Object{Kind: "Gateway", Namespace: "infra", Name: "gw", Status: Status{
		Conditions: []Cond{{Type: "Accepted", Status: "False", Reason: "Invalid"}},
		Listeners:  []ListenerEntry{{Name: "b", Conditions: []Cond{accepted, {Type: "Conflicted", Status: "False", Reason: "NoConflicts"}}}},
	}}
	route := &Object{Kind: "HTTPRoute", Namespace: "app", Name: "r", Status: Status{Parents: []ParentEntry{{
		ParentRef:  ParentRef{Name: "gw", Namespace: new("infra"), SectionName: new("a")},
		Conditions: []Cond{accepted},
	}}}}
	routeDefaulted := &Object{Kind: "HTTPRoute", Namespace: "app", Name: "r", Status: Status{Parents: []ParentEntry{{
		ParentRef: ParentRef{Group: new("gateway.networking.k8s.io"), Kind: new("Gateway"), Name: "gw",
			Namespace: new("infra"), SectionName: new("a")},
		Conditions: []Cond{{Type: "Accepted", Status: "False", Reason: "NotAllowedByListeners"}},
	}}}}
	places := map[Place]string{Own: "own", Listener: "listener", Parent: "parent", Ancestor: "ancestor"}
	var got []string
	for _, op := range PairObjects([]*Object{before, route}, []*Object{after, routeDefaulted}) {
		for _, p := range Pairs(op.Old, op.New) {
			for _, c := range p.Conds() {
				got = append(got, fmt.Sprintf("%s %s %q %s %s -> %s", op.ID, places[p.Place], p.Name, c.Type, condString(c.Old), condString(c.New)))
			}
		}
	}
	want := []string{
		`Gateway infra/gw own "" Accepted True/Accepted -> False/Invalid`,
		`Gateway infra/gw listener "a" Accepted True/Accepted -> none`,
		`Gateway infra/gw listener "b" Accepted none -> True/Accepted`,
		`Gateway infra/gw listener "b" Conflicted none -> False/NoConflicts`,
		`HTTPRoute app/r parent "Gateway infra/gw/a" Accepted True/Accepted -> False/NotAllowedByListeners`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("pairs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func condString(c *Cond) string {
	if c == nil {
		return "none"
	}
	return c.Status + "/" + c.Reason
}
