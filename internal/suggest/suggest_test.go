package suggest

import (
	"slices"
	"testing"
)

func TestClosest(t *testing.T) {
	kinds := []string{"Gateway", "GatewayClass", "HTTPRoute", "GRPCRoute"}
	for name, want := range map[string]string{
		"HTTPRoutez":   "HTTPRoute",
		"httproute":    "HTTPRoute",
		"GatewayClas":  "GatewayClass",
		"Gateways":     "Gateway",
		"Ingress":      "",
		"":             "",
		"GRPCRouteXYZ": "GRPCRoute",
	} {
		if got := Closest(name, kinds); got != want {
			t.Errorf("Closest(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"listener-no-rotes", "listener-no-routes", 1}, {"kitten", "sitting", 3}} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestMisspelt(t *testing.T) {
	for _, tt := range []struct {
		name       string
		candidates []string
		want       string
	}{
		// Slips: one letter swapped, dropped, doubled or changed.
		{"sharde", []string{"shared"}, "shared"},
		{"shard", []string{"shared", "internal"}, "shared"},
		{"sharedd", []string{"shared"}, "shared"},
		{"shored", []string{"shared"}, "shared"},
		{"Shared", []string{"shared"}, "shared"},
		{"podinfo-primay", []string{"podinfo", "podinfo-primary", "podinfo-canary"}, "podinfo-primary"},
		{"example-com-tsl", []string{"example-com-tls"}, "example-com-tls"},
		{"sharedgw", []string{"shared-gw"}, "shared-gw"},
		{"envoy-gatway", []string{"envoy-gateway", "istio"}, "envoy-gateway"},
		// Siblings, not slips.
		{"store-3", []string{"store-1", "store-2"}, ""},
		{"store-2", []string{"store-1"}, ""},
		{"app-v2", []string{"app-v1"}, ""},
		{"echo2", []string{"echo"}, ""},
		{"web-10", []string{"web-1"}, ""},
		{"zone-b", []string{"zone-a"}, ""},
		{"api-eu", []string{"api-us"}, ""},
		{"svc-ab", []string{"svc-ac"}, ""},
		{"web-https", []string{"web-http"}, ""},
		{"web-http", []string{"web-https"}, ""},
		{"backend", []string{"backends"}, ""},
		// Too far, or too short to tell.
		{"api", []string{"web"}, ""},
		{"apj", []string{"api"}, ""},
		{"web", []string{"webs"}, ""},
		{"frontend-east", []string{"frontend-west"}, ""},
		{"productpage", []string{"reviews", "ratings"}, ""},
		{"shared", []string{"shared"}, ""},
		{"", []string{"shared"}, ""},
		// Two candidates a slip away: which was meant is unknown.
		{"sharde", []string{"shared", "sharded"}, ""},
	} {
		if got := Misspelt(tt.name, slices.Values(tt.candidates)); got != tt.want {
			t.Errorf("Misspelt(%q, %q) = %q, want %q", tt.name, tt.candidates, got, tt.want)
		}
	}
}

func TestOSADistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"sharde", "shared", 1}, {"ab", "ba", 1}, {"abc", "ca", 3}, {"", "abc", 3}, {"east", "west", 2}, {"kitten", "sitting", 3}} {
		if got := osaDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("osaDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
