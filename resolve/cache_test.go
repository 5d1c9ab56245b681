package resolve_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"

	"sigs.k8s.io/gateway-api/pkg/features"
)

// shadowsOf renders a graph's shadows, for comparison. They must point
// at the graph's own listeners and route results: a cache keeps them
// from another graph.
func shadowsOf(t *testing.T, g *resolve.Graph) []string {
	t.Helper()
	var out []string
	for _, s := range g.Shadows {
		if !slices.Contains(g.Routes, s.Winner.Route) || !slices.Contains(g.Routes, s.Shadowed.Route) ||
			!slices.Contains(s.Listener.Gateway.AllListeners(), s.Listener) || !slices.Contains(g.Gateways, s.Listener.Gateway) {
			t.Errorf("shadow %s of %s points at another graph", s.Shadowed.Path, s.Shadowed.Route.Ref)
		}
		out = append(out, fmt.Sprintf("%s %s %s/%s %s/%s %s", s.Listener.Name, s.Hostname,
			s.Winner.Route.Ref, s.Winner.Path, s.Shadowed.Route.Ref, s.Shadowed.Path, s.Match))
	}
	return out
}

// gapsOf renders a graph's feature gaps, for comparison.
func gapsOf(g *resolve.Graph) []string {
	var out []string
	for _, gap := range g.FeatureGaps {
		out = append(out, fmt.Sprintf("%s %s %s %s", gap.Object.Ref, gap.Path, gap.Feature, gap.Profile))
	}
	return out
}

// TestCacheResolvesAsResolve: resolving with a Cache finds what Resolve
// finds, whether the cache holds the routes (the same objects again), or
// holds other objects of the same routes (the files read again), across
// checks.
func TestCacheResolvesAsResolve(t *testing.T) {
	opts := resolve.Options{Validate: true, Implementations: implementations.All()}
	paths := []string{"../lint/testdata/base.yaml", "../lint/testdata/route-match-shadowed/routes.yaml"}
	in := resolve.Load(paths, nil, opts)
	want := shadowsOf(t, resolve.Resolve(in, opts))
	if len(want) == 0 {
		t.Fatal("no shadows to compare")
	}
	c := resolve.NewCache()
	for check, again := range []*resolve.Inputs{in, in, resolve.Load(paths, nil, opts), in} {
		if got := shadowsOf(t, c.Resolve(again, opts)); !slices.Equal(got, want) {
			t.Errorf("check %d: shadows\n%v\nwant\n%v", check, got, want)
		}
		c.EndCheck()
	}
}

// TestCacheFollowsEdits: after edits that change what is attached to a
// listener (a route added that shadows and is shadowed, a rule's match
// changed, a route gone), and edits back, each check with a Cache finds
// the shadows and feature gaps Resolve finds of the same objects.
func TestCacheFollowsEdits(t *testing.T) {
	opts := resolve.Options{Validate: true, Implementations: implementations.All(),
		WithoutFeatures: []features.FeatureName{features.SupportHTTPRouteRequestTimeout, features.SupportHTTPRouteMethodMatching}}
	const cart = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: cart
  namespace: app
spec:
  parentRefs:
  - name: gw
    namespace: infra
  hostnames:
  - shop.example.com
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /cart
    backendRefs:
    - name: web
      port: 8080
  - matches:
    - path:
        type: PathPrefix
        value: /orders
      method: GET
    backendRefs:
    - name: web
      port: 8080
    timeouts:
      request: 10s
`
	// Sorted before the others, with cart's first rule only.
	early := strings.Replace(cart[:strings.Index(cart, "  - matches:\n    - path:\n        type: PathPrefix\n        value: /orders")],
		"name: cart\n", "name: aa-early\n", 1)
	world := editor(opts)
	shadowing := strings.Replace(cart, "name: cart\n", "name: cart-v2\n", 1)
	c := resolve.NewCache()
	checks := []*resolve.Inputs{
		world(cart),
		world(cart, shadowing),
		world(cart, shadowing, early),
		world(cart, strings.Replace(shadowing, "/cart", "/basket", 1), early),
		world(cart, early),
		world(cart),
	}
	shadows, gaps := 0, 0
	for check, in := range checks {
		cold, cached := resolve.Resolve(in, opts), c.Resolve(in, opts)
		want := shadowsOf(t, cold)
		shadows += len(want)
		if got := shadowsOf(t, cached); !slices.Equal(got, want) {
			t.Errorf("check %d: shadows\n%v\nwant\n%v", check, got, want)
		}
		wantGaps := gapsOf(cold)
		gaps += len(wantGaps)
		if got := gapsOf(cached); !slices.Equal(got, wantGaps) {
			t.Errorf("check %d: feature gaps\n%v\nwant\n%v", check, got, wantGaps)
		}
		c.EndCheck()
	}
	if shadows < 4 || gaps < 6 {
		t.Errorf("only %d shadows and %d feature gaps across the checks: the edits do not exercise the cache", shadows, gaps)
	}
}

// editor returns the worlds of lint's base.yaml and files of the given
// texts, as the language server holds them: a text is read once, so that
// the worlds that hold it hold its very objects, as a file not read again.
func editor(opts resolve.Options) func(texts ...string) *resolve.Inputs {
	base := resolve.Load([]string{"../lint/testdata/base.yaml"}, nil, opts)
	read := map[string]*resolve.Inputs{}
	return func(texts ...string) *resolve.Inputs {
		in := &resolve.Inputs{Skipped: map[string]int{}}
		in.Merge(base)
		for _, text := range texts {
			if read[text] == nil {
				read[text] = resolve.LoadData(fmt.Sprintf("file-%d.yaml", len(read)), []byte(text), opts)
			}
			in.Merge(read[text])
		}
		return in
	}
}

// backendsOf renders every route's rules as resolved: each backendRef's
// verdict, share and BackendTLSPolicy, the route's ResolvedRefs, and
// Envoy Gateway's verdict on each rule's filters. A cache hands back the
// rules of another graph, made anew for this one: each must be this
// graph's own.
func backendsOf(t *testing.T, g *resolve.Graph) []string {
	t.Helper()
	var out []string
	for _, r := range g.Routes {
		out = append(out, fmt.Sprintf("%s ResolvedRefs %s %s %s", r.Ref, r.ResolvedRefs.Status, r.ResolvedRefs.Reason, r.ResolvedRefs.Message))
		for _, rr := range r.Rules {
			if v := envoygateway.RouteFilters(g, rr); v != nil {
				out = append(out, fmt.Sprintf("%s rule %d filters: by %s refused %v unresolved %v host from path %v", r.Ref, rr.Index, v.By, v.Refused, v.Unresolved, v.HostFromPath))
			}
			for _, b := range rr.AllBackends() {
				policy := ""
				if b.TLSPolicy != nil {
					policy = b.TLSPolicy.Ref.String()
					if !slices.Contains(g.TLSPolicies, b.TLSPolicy) {
						t.Errorf("%s %s: BackendTLSPolicy of another graph", r.Ref, b.Path)
					}
				}
				port := ""
				if b.Port != nil {
					port = fmt.Sprint(b.Port.Name, b.Port.Port)
				}
				out = append(out, fmt.Sprintf("%s %s -> %s %s %q port %s weight %d share %.3f presence %v unreported %v tls %s grant %v",
					r.Ref, b.Path, b.Target, b.Problem, b.Message, port, b.Weight, b.Share, b.Presence, b.Unreported, policy, b.Grant != nil))
			}
		}
	}
	return out
}

// fixtureWorlds are the worlds of lint's rule fixtures, each directory on
// base.yaml.
func fixtureWorlds(t *testing.T) map[string][]string {
	t.Helper()
	entries, err := os.ReadDir("../lint/testdata")
	if err != nil {
		t.Fatal(err)
	}
	worlds := map[string][]string{}
	for _, e := range entries {
		dir := filepath.Join("../lint/testdata", e.Name())
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		files = slices.DeleteFunc(files, func(f string) bool { return filepath.Base(f) == "options.yaml" })
		if len(files) > 0 {
			worlds[filepath.Base(dir)] = append([]string{"../lint/testdata/base.yaml"}, files...)
		}
	}
	return worlds
}

// TestCacheKeepsBackendsAsResolve: for the world of every rule fixture,
// resolved again with a Cache (the same objects, or one route read again),
// every route's backendRefs are resolved as Resolve resolves them, and
// the graph before is left as it was.
func TestCacheKeepsBackendsAsResolve(t *testing.T) {
	opts := resolve.Options{Validate: true, Implementations: implementations.All()}
	worlds := fixtureWorlds(t)
	if len(worlds) < 50 {
		t.Fatalf("%d fixture worlds", len(worlds))
	}
	for name, paths := range worlds {
		in := resolve.Load(paths, nil, opts)
		want := backendsOf(t, resolve.Resolve(in, opts))
		// The last file read again: new objects of the same manifests.
		again := &resolve.Inputs{Skipped: map[string]int{}}
		again.Merge(resolve.Load(paths[:len(paths)-1], nil, opts), resolve.Load(paths[len(paths)-1:], nil, opts))
		c := resolve.NewCache()
		var last *resolve.Graph
		for check, in := range []*resolve.Inputs{in, in, again, again} {
			g := c.Resolve(in, opts)
			if got := backendsOf(t, g); !slices.Equal(got, want) {
				t.Errorf("%s, check %d: backends\n%s\nwant\n%s", name, check, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// The last graph, which the language server serves while it
			// checks again, is as it was.
			if last != nil && !slices.Equal(backendsOf(t, last), want) {
				t.Errorf("%s, check %d: the last graph's backends changed", name, check)
			}
			last = g
			c.EndCheck()
		}
	}
}

// TestCacheFollowsBackendEdits: after edits of a route, of the Service it
// names, of the grant that permits another's reference, and back, each
// check with a Cache resolves every route's backendRefs as Resolve does.
func TestCacheFollowsBackendEdits(t *testing.T) {
	opts := resolve.Options{Validate: true, Implementations: implementations.All()}
	const (
		route = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - backendRefs: [{name: web, port: 8080, weight: 3}, {name: web-v2, port: 8080}]
`
		crossing = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: billing, namespace: infra}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs: [{name: web, namespace: app, port: 8080}]
`
		grant = `apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: from-infra, namespace: app}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: infra}]
  to: [{group: "", kind: Service}]
`
		service = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: app}
spec:
  ports: [{name: http, port: 9090}]
`
	)
	world := editor(opts)
	moved := strings.Replace(route, "port: 8080, weight: 3", "port: 8081, weight: 3", 1)
	problems := 0
	for _, line := range checkBackends(t, opts,
		world(route, crossing, grant),
		world(moved, crossing, grant), // a route edited
		world(moved, crossing),        // the grant gone
		world(moved, crossing, grant),
		world(route, crossing, grant, service), // the Service's port changed, later in the inputs
		world(route, crossing, grant),
	) {
		if strings.Contains(line, "not found") || strings.Contains(line, "not permitted") {
			problems++
		}
	}
	if problems < 3 {
		t.Errorf("only %d backend problems across the checks: the edits do not exercise the cache", problems)
	}
}

// TestCacheFollowsDelegation: a route whose parent is a route (kgateway's
// delegation) reaches its Gateways through it, so an edit of the parent
// alone changes how its backends resolve (here a kind the implementation
// running it may or may not take), and a Cache follows.
func TestCacheFollowsDelegation(t *testing.T) {
	opts := resolve.Options{Validate: true, Implementations: implementations.All()}
	const (
		parent = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: parent, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: child}]
`
		child = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: child, namespace: app}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: parent}]
  rules:
  - backendRefs: [{group: example.com, kind: Foo, name: foo, port: 80}]
`
	)
	world := editor(opts)
	checkBackends(t, opts,
		world(parent, child),
		world(strings.Replace(parent, "name: gw,", "name: gone,", 1), child), // its Gateway gone
		world(child), // the parent gone
	)
}

// checkBackends resolves each world in turn with one Cache, as the
// language server checks after each edit, and compares every route's
// backends with Resolve's; it returns Resolve's, every check's.
func checkBackends(t *testing.T, opts resolve.Options, checks ...*resolve.Inputs) []string {
	t.Helper()
	c := resolve.NewCache()
	var all []string
	for check, in := range checks {
		want := backendsOf(t, resolve.Resolve(in, opts))
		if got := backendsOf(t, c.Resolve(in, opts)); !slices.Equal(got, want) {
			t.Errorf("check %d: backends\n%s\nwant\n%s", check, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		all = append(all, want...)
		c.EndCheck()
	}
	return all
}
