package resolve

import (
	"regexp"
	"strings"
	"testing"
)

// widgets declares the policy kinds of a made-up implementation: Widget
// (inherited, the most specific overriding, the older winning) on
// Gateways, their listeners and HTTPRoutes, and Gadget (direct, all
// applying) on Services.
type widgets struct{}

func (widgets) Name() string { return "acme" }

func (widgets) PolicyKinds() []PolicyKind {
	return []PolicyKind{{
		Group: "acme.example", Kind: "Widget", Implementation: "acme", Inherited: true, Overrides: true, Conflicts: OlderWins,
		Targets: []PolicyTargetKind{{Group: GroupGateway, Kind: KindGateway, SectionName: true}, {Group: GroupGateway, Kind: KindHTTPRoute}},
	}, {
		Group: "acme.example", Kind: "Gadget", Implementation: "acme", Conflicts: AllApply,
		Targets: []PolicyTargetKind{{Group: GroupCore, Kind: KindService}},
	}}
}

var widgetOptions = Options{OwnedNamespaces: owned.OwnedNamespaces, Implementations: []Implementation{widgets{}}}

const policyRoute = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: store, namespace: infra}
spec:
  parentRefs: [{name: gw, sectionName: http}]
  rules: [{name: main, backendRefs: [{name: web, namespace: app, port: 8080}]}]`

// policy is a policy of kind (acme.example) in infra with one target and
// a creationTimestamp.
func policy(kind, name, created, target string) string {
	return "apiVersion: acme.example/v1\nkind: " + kind + "\nmetadata: {name: " + name + ", namespace: infra, creationTimestamp: \"" + created +
		"\"}\nspec:\n  targetRefs: [" + target + "]"
}

func mustPolicy(t *testing.T, g *Graph, kind, name string) *PolicyResult {
	t.Helper()
	p := g.Policy(ObjectRef{Kind: kind, Namespace: "infra", Name: name})
	if p == nil {
		t.Fatalf("no policy %s infra/%s among %d", kind, name, len(g.Policies))
	}
	return p
}

func TestPolicyDetection(t *testing.T) {
	in := Load([]string{"-"}, strings.NewReader(strings.Join([]string{world, policyRoute,
		// A kind no implementation declares: still a policy.
		"apiVersion: other.example/v1\nkind: Knob\nmetadata: {name: knob, namespace: infra}\nspec: {targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}}",
		// An object reference with apiVersion is no GEP-713 reference.
		"apiVersion: autoscaling.k8s.io/v1\nkind: VerticalPodAutoscaler\nmetadata: {name: vpa, namespace: infra}\nspec: {targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}}",
		// No targetRef at all.
		"apiVersion: other.example/v1\nkind: Dial\nmetadata: {name: dial, namespace: infra}\nspec: {selector: {app: web}}",
	}, "\n---\n")), widgetOptions)
	g := Resolve(in, widgetOptions)
	if len(g.Policies) != 1 {
		t.Fatalf("want the Knob alone as a policy, got %d", len(g.Policies))
	}
	knob := mustPolicy(t, g, "Knob.other.example", "knob")
	if knob.Known != nil || knob.Kind != "Knob" || knob.Group != "other.example" {
		t.Errorf("Knob: known %v, kind %q, group %q", knob.Known, knob.Kind, knob.Group)
	}
	if tg := knob.Targets[0]; tg.Presence != Present || !tg.Applies() || tg.Path != "spec.targetRef" {
		t.Errorf("Knob's target: %+v", tg)
	}
	// Unknown kinds apply to their target alone.
	if len(knob.Reaches) != 1 || knob.Reaches[0].Object.Kind != KindGateway || knob.Reaches[0].Inherited {
		t.Errorf("Knob reaches %d objects", len(knob.Reaches))
	}
	for _, skipped := range []string{"autoscaling.k8s.io/v1 VerticalPodAutoscaler", "other.example/v1 Dial"} {
		if in.Skipped[skipped] != 1 {
			t.Errorf("%s not skipped: %v", skipped, in.Skipped)
		}
	}
}

func TestPolicyTargets(t *testing.T) {
	g := resolveYAML(t, widgetOptions, world, policyRoute,
		policy("Widget", "typo", "2024-01-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: stor}"),
		policy("Widget", "no-listener", "2024-01-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: htp}"),
		policy("Widget", "on-service", "2024-01-01T00:00:00Z", `{group: "", kind: Service, name: web}`),
		policy("Widget", "route-section", "2024-01-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: store, sectionName: main}"),
		policy("Widget", "elsewhere", "2024-01-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: Gateway, name: gw, namespace: other}"),
	)
	cases := []struct {
		name    string
		problem PolicyProblem
		reason  Reason
		message string
	}{
		{"typo", PolicyTargetNotFound, ReasonTargetNotFound, `HTTPRoute infra/stor not found; did you mean "store"\?`},
		{"no-listener", PolicySectionNotFound, ReasonTargetNotFound, `Gateway infra/gw has no listener named "htp" \(names: "http", "https", "tcp"\)`},
		{"on-service", PolicyKindUnsupported, ReasonInvalid, `Widget takes no target of kind Service; it takes Gateway.gateway.networking.k8s.io, HTTPRoute.gateway.networking.k8s.io`},
		{"route-section", PolicySectionUnsupported, ReasonInvalid, `Widget takes targets of kind HTTPRoute only whole, without sectionName`},
		{"elsewhere", PolicyOtherNamespace, ReasonInvalid, `Gateway other/gw is in namespace other: a Widget attaches only to objects of its own namespace, infra`},
	}
	for _, c := range cases {
		tg := mustPolicy(t, g, "Widget.acme.example", c.name).Targets[0]
		if tg.Problem != c.problem || tg.Reason != c.reason || !matches(c.message, tg.Message) {
			t.Errorf("%s: got %s/%s %q, want %s/%s %q", c.name, tg.Problem, tg.Reason, tg.Message, c.problem, c.reason, c.message)
		}
	}
}

func TestPolicyConflictsAndReach(t *testing.T) {
	g := resolveYAML(t, widgetOptions, world, policyRoute,
		policy("Widget", "newer", "2024-02-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: Gateway, name: gw}"),
		policy("Widget", "older", "2024-01-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: Gateway, name: gw}"),
		policy("Widget", "listener", "2024-03-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: http}"),
		policy("Widget", "route", "2024-03-01T00:00:00Z", "{group: gateway.networking.k8s.io, kind: HTTPRoute, name: store}"),
		policy("Gadget", "a", "2024-02-01T00:00:00Z", `{group: "", kind: Service, name: web-v2}`),
		policy("Gadget", "b", "2024-01-01T00:00:00Z", `{group: "", kind: Service, name: web-v2}`),
	)
	newer := mustPolicy(t, g, "Widget.acme.example", "newer").Targets[0]
	if newer.Problem != PolicyConflicted || newer.HeldBy.Ref.Name != "older" ||
		newer.Message != "Widget infra/older, older or first by name, already targets Gateway infra/gw" {
		t.Errorf("newer: %s %q held by %v", newer.Problem, newer.Message, newer.HeldBy)
	}
	// Policies that all apply conflict with none (and Services are not in
	// infra: both target nothing the inputs hold there).
	for _, name := range []string{"a", "b"} {
		if tg := mustPolicy(t, g, "Gadget.acme.example", name).Targets[0]; tg.Problem == PolicyConflicted {
			t.Errorf("Gadget %s conflicted", name)
		}
	}
	// The route: reached by the Gateway's policies (inherited), by the
	// listener's, and by its own, which alone is effective.
	route := ObjectRef{Kind: KindHTTPRoute, Namespace: "infra", Name: "store"}
	var got []string
	for _, r := range g.PoliciesReaching(route) {
		state := "effective"
		switch {
		case r.Conflicted():
			state = "conflicted"
		case r.OverriddenBy != nil:
			state = "overridden by " + r.OverriddenBy.Ref.Name
		}
		got = append(got, r.Policy.Ref.Name+" "+state+map[bool]string{true: " inherited", false: ""}[r.Inherited])
	}
	want := []string{"route effective", "listener overridden by route inherited", "newer conflicted inherited", "older overridden by route inherited"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("policies reaching the route:\n got %q\nwant %q", got, want)
	}
	// What the Gateway's policy reaches: the Gateway and the route.
	older := mustPolicy(t, g, "Widget.acme.example", "older")
	if len(older.Reaches) != 2 || older.Reaches[0].Object.Kind != KindGateway || older.Reaches[1].Object != route {
		t.Errorf("older reaches %d objects", len(older.Reaches))
	}
}

// matches reports whether s matches the regular expression pattern, whole.
func matches(pattern, s string) bool { return regexp.MustCompile("^" + pattern + "$").MatchString(s) }
