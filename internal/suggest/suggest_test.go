package suggest

import "testing"

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
