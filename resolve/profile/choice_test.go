package profile

import (
	"strings"
	"testing"

	"sigs.k8s.io/gateway-api/pkg/features"
)

func TestChoiceForGateway(t *testing.T) {
	istio, _ := Lookup("istio")
	cors := []features.FeatureName{features.SupportHTTPRouteCORS}
	for _, c := range []struct {
		name              string
		selected          *Profile
		classes           bool // GatewayClasses among the inputs
		objects           []string
		hasClass          bool
		controller, class string
		want              string // the chosen profile's name, "" for Everything
		inferred          string // the inference, after its profile's name and version; "" for none
	}{
		{name: "selected judges every Gateway", selected: istio, hasClass: true, controller: "gateway.envoyproxy.io/gatewayclass-controller", want: "istio"},
		{name: "the class's controllerName", hasClass: true, controller: "gateway.envoyproxy.io/gatewayclass-controller", want: "envoy-gateway"},
		{name: "an unknown controllerName", hasClass: true, controller: "example.com/acme"},
		{name: "a class its implementation installs", class: "istio-waypoint", want: "istio"},
		{name: "the selected implementation does not install it", selected: istio, class: "kgateway", want: "istio"},
		{name: "a class name its documentation gives", class: "eg", want: "envoy-gateway",
			inferred: "inferred from gatewayClassName eg (no GatewayClass among the inputs)"},
		{name: "the world's evidence", class: "internal", objects: []string{"gateway.envoyproxy.io/v1alpha1", "gateway.envoyproxy.io/v1alpha1"},
			want: "envoy-gateway", inferred: "inferred from 2 objects of gateway.envoyproxy.io"},
		{name: "GatewayClasses among the inputs: nothing inferred", classes: true, class: "eg", objects: []string{"gateway.envoyproxy.io/v1alpha1"}},
		{name: "evidence of several", class: "internal", objects: []string{"gateway.envoyproxy.io/v1alpha1", "gateway.kgateway.dev/v1alpha1"},
			inferred: "none inferred: the evidence names envoy-gateway (1 object of gateway.envoyproxy.io) and kgateway (1 object of gateway.kgateway.dev)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			choice := NewChoice(c.selected, cors)
			if ev := choice.Gather(c.classes); ev != nil {
				for _, apiVersion := range c.objects {
					ev.Objects(apiVersion, 1)
				}
			}
			choice.Infer()
			p, in := choice.ForGateway(c.hasClass, c.controller, c.class)
			if p.Name != c.want || p.Support(features.SupportHTTPRouteCORS) != Unsupported {
				t.Errorf("profile %q (CORS %v), want %q without CORS", p.Name, p.Support(features.SupportHTTPRouteCORS), c.want)
			}
			if got := inferenceString(in); got != c.inferred {
				t.Errorf("inference %q, want %q", got, c.inferred)
			}
		})
	}
}

// inferenceString is what in says, without the inferred profile's name
// and version, which a new release changes.
func inferenceString(in *Inference) string {
	switch {
	case in == nil:
		return ""
	case in.Profile == nil:
		return in.String()
	}
	return strings.TrimPrefix(in.String(), in.Profile.String()+", ")
}
