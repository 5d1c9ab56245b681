package envoygateway_test

import (
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
)

// A field of the wrong type in a spec of Envoy Gateway's kinds is named in
// the document's terms, not by a Go struct literal (KindReader's specs are
// anonymous structs).
func TestWrongTypeNamedInDocumentTerms(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: b, namespace: x}
spec: {endpoints: "10.0.0.1"}
`, "Backend x/b: spec.endpoints must be a list, not string"},
		{`apiVersion: gateway.envoyproxy.io/v1alpha1
kind: HTTPRouteFilter
metadata: {name: f, namespace: x}
spec: {urlRewrite: [a]}
`, "HTTPRouteFilter x/f: spec.urlRewrite must be an object, not array"},
		{`apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyExtensionPolicy
metadata: {name: p, namespace: x}
spec: []
`, "EnvoyExtensionPolicy x/p: spec must be an object, not array"},
	} {
		opts := resolve.Options{Implementations: []resolve.Implementation{envoygateway.Implementation{}}}
		in := resolve.Load([]string{"-"}, strings.NewReader(tc.doc), opts)
		if len(in.Errors) != 1 || !strings.HasSuffix(in.Errors[0].Error(), tc.want) {
			t.Errorf("errors %v, want one ending %q", in.Errors, tc.want)
		}
	}
}
