// Package resolvetest helps the tests of the packages built on resolve
// (each implementation's, package lint's) resolve small worlds written
// inline.
package resolvetest

import (
	_ "embed"
	"fmt"
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/profile"
)

// World is a small cluster cases add routes and objects to: a GatewayClass
// acme, a Gateway "gw" in infra with an HTTP listener on 80, an HTTPS
// listener for *.example.com on 443 and a TCP listener on 9000, the
// Namespaces infra, app (labelled team: shop) and other, and Services web
// and web-v2 in app.
//
//go:embed world.yaml
var World string

// Resolve loads docs, YAML documents, as one stream and resolves them,
// failing the test on a read error.
func Resolve(t testing.TB, opts resolve.Options, docs ...string) *resolve.Graph {
	t.Helper()
	in := resolve.Load([]string{"-"}, strings.NewReader(strings.Join(docs, "\n---\n")), opts)
	for _, err := range in.Errors {
		t.Fatalf("unexpected read error: %v", err)
	}
	return resolve.Resolve(in, opts)
}

// JudgedBy returns Options that judge every Gateway by impl's newest profile
// (--implementation NAME) and its reading of the world; for a nil impl,
// Options that let each Gateway's class choose, with no implementation's
// reading.
func JudgedBy(t testing.TB, impl resolve.Implementation) resolve.Options {
	t.Helper()
	if impl == nil {
		return resolve.Options{}
	}
	p, err := profile.Lookup(impl.Name())
	if err != nil {
		t.Fatal(err)
	}
	return resolve.Options{Implementation: p, Implementations: []resolve.Implementation{impl}}
}

// Route returns the one route of kind named ns/name, failing the test when
// there is not exactly one.
func Route(t testing.TB, g *resolve.Graph, kind, ns, name string) *resolve.RouteResult {
	t.Helper()
	rs := g.FindRoutes(kind, ns, name)
	if len(rs) != 1 {
		t.Fatalf("want one %s %s/%s, found %d", kind, ns, name, len(rs))
	}
	return rs[0]
}

// ParentRefName is "ns/name[/section][:port]" of a parentRef.
func ParentRefName(r gwv1.ParentReference) string {
	s := "/" + string(r.Name)
	if r.Namespace != nil {
		s = string(*r.Namespace) + s
	}
	if r.SectionName != nil {
		s += "/" + string(*r.SectionName)
	}
	if r.Port != nil {
		s += fmt.Sprintf(":%d", *r.Port)
	}
	return s
}

// StatusOf is the status the graph writes for the object of kind ns/name
// (S is its type: gwv1.GatewayStatus, gwv1.PolicyStatus, ...), failing the
// test when it writes none.
func StatusOf[S any](t testing.TB, g *resolve.Graph, kind, ns, name string) S {
	t.Helper()
	for _, s := range g.Statuses() {
		if s.Kind == kind && s.Metadata.Namespace == ns && s.Metadata.Name == name {
			return s.Status.(S)
		}
	}
	t.Fatalf("no status for %s %s/%s", kind, ns, name)
	var none S
	return none
}

// GatewayStatus is the status the graph writes for Gateway ns/name, failing
// the test when it writes none.
func GatewayStatus(t testing.TB, g *resolve.Graph, ns, name string) gwv1.GatewayStatus {
	t.Helper()
	return StatusOf[gwv1.GatewayStatus](t, g, resolve.KindGateway, ns, name)
}
