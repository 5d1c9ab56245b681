package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

func newExplainServiceCmd(streams *cli.IOStreams, runF func(*explainOptions) error) *cobra.Command {
	return explainCmd(streams, runF, runExplainService, &cobra.Command{
		Aliases: serviceAliases,
		Use:     "service NAME",
		Short:   "Explain the mesh routes bound to a Service and the routes that send it traffic",
		Long: `Explain a Service in the mesh (GEP-1426): for every port, the route kind that
applies (GRPCRoute > HTTPRoute > TLSRoute > TCPRoute), its producer routes
(in the Service's namespace, for every client) and consumer routes (in
other namespaces, for their own clients), and the routes that lost the
port to a kind of higher precedence. Then every route rule that names the
Service as a backendRef, with its weight, share and state.

Exits 1 when the Service is not found.`,
		Example: `  gwctl explain service store-v1 -n store -f testdata/examples
  gwctl explain service payments -o json`,
	})
}

func runExplainService(opts *explainOptions) error {
	g, _, inputFailed := loadGraph(&opts.inputOptions, opts.IO, func(g *resolve.Graph) bool { return len(named(opts, g.Services)) > 0 })
	svc, err := pick(opts, "Service", "-n", named(opts, g.Services))
	if err != nil {
		return withInputErrors(err, inputFailed)
	}
	view := newServiceExplanation(g, svc)
	opts.diagram = func() *diagram { return serviceDiagram(g, svc) }
	return withInputErrors(opts.write(view), inputFailed)
}

// serviceExplanation is the schema of `gwctl explain service -o json|yaml`.
type serviceExplanation struct {
	typeMeta
	Service refView `json:"service"`
	Source  string  `json:"source"`
	// ParentProblem says why the Service cannot be a mesh parent at all
	// (headless, ExternalName); empty when it can.
	ParentProblem string            `json:"parentProblem,omitempty"`
	Ports         []servicePortView `json:"ports"`
	// BackendOf lists the route rules that send traffic to the Service.
	BackendOf []backendUseView `json:"backendOf"`
	// Policies are the policies that reach the Service or its ports.
	Policies []policyReachView `json:"policies"`
}

type servicePortView struct {
	Port        int32  `json:"port"`
	Name        string `json:"name,omitempty"`
	Protocol    string `json:"protocol,omitempty"`
	AppProtocol string `json:"appProtocol,omitempty"`
	// Winner is the route kind that applies on the port; empty if none.
	Winner     string          `json:"winner,omitempty"`
	Producers  []meshRouteView `json:"producers,omitempty"`
	Consumers  []meshRouteView `json:"consumers,omitempty"`
	Conflicted []meshRouteView `json:"conflicted,omitempty"`
}

// meshRouteView is one route parentRef bound to a Service port.
type meshRouteView struct {
	Route     refView `json:"route"`
	ParentRef string  `json:"parentRef"`
}

type backendUseView struct {
	Route      refView `json:"route"`
	Rule       string  `json:"rule"`
	BackendRef string  `json:"backendRef"`
	backendView
}

func newServiceExplanation(g *resolve.Graph, svc *resolve.ServiceResult) *serviceExplanation {
	v := &serviceExplanation{
		typeMeta: explanationMeta("ServiceExplanation"),
		Service:  refOf(svc.Ref), Source: sourceOf(&svc.Meta),
		Ports: []servicePortView{}, BackendOf: []backendUseView{},
		Policies: policyReachesOf(g, svc.Ref),
	}
	switch {
	case svc.Headless():
		v.ParentProblem = "headless (clusterIP: None): it has no frontend for mesh routes to bind to"
	case svc.ExternalName():
		v.ParentProblem = "type ExternalName: mesh routes cannot bind to it"
	}
	for _, mp := range svc.Ports() {
		pv := servicePortView{
			Port: mp.Port.Port, Name: mp.Port.Name, Protocol: mp.Port.Protocol, Winner: mp.Winner,
			Producers: meshRoutes(mp.Producers), Consumers: meshRoutes(mp.Consumers), Conflicted: meshRoutes(mp.Conflicted),
		}
		if mp.Port.AppProtocol != nil {
			pv.AppProtocol = *mp.Port.AppProtocol
		}
		v.Ports = append(v.Ports, pv)
	}
	for _, r := range g.Routes {
		for _, rr := range r.Rules {
			for _, b := range rr.Backends {
				if b.Group == resolve.GroupCore && b.Target == svc.Ref {
					v.BackendOf = append(v.BackendOf, backendUseView{
						Route: refOf(r.Ref), Rule: rr.Label(), BackendRef: b.Path, backendView: backendViewOf(r.Route, b),
					})
				}
			}
		}
	}
	return v
}

func meshRoutes(ps []*resolve.ParentResult) []meshRouteView {
	var out []meshRouteView
	for _, p := range ps {
		out = append(out, meshRouteView{Route: refOf(p.Route.Ref), ParentRef: p.Path})
	}
	return out
}

func (v *serviceExplanation) writeText(p *printer) {
	pal := p.pal
	p.title(v.Service, v.Source)
	if v.ParentProblem != "" {
		p.line(0, "Mesh parent: %s", pal.bad.Sprint(v.ParentProblem))
	}
	p.blank()
	p.heading("Mesh routes by port")
	if len(v.Ports) == 0 {
		p.line(1, "the Service has no ports")
	}
	for _, port := range v.Ports {
		port.writeText(p)
	}
	p.blank()
	p.heading("Backend of")
	if len(v.BackendOf) == 0 {
		p.line(1, "no route sends traffic to this Service")
	} else {
		var rows [][]string
		for _, u := range v.BackendOf {
			b := u.row(pal)
			rows = append(rows, []string{u.Route.String(), u.Rule, u.BackendRef, b[1], b[2], b[3], b[4]})
		}
		p.table(1, []string{"ROUTE", "RULE", "BACKENDREF", "WEIGHT", "SHARE", "STATE", "TRAFFIC"}, rows)
		for _, u := range v.BackendOf {
			if u.TLSPolicy != nil {
				p.line(1, "%s %s: %s", u.Route, u.BackendRef, u.TLSPolicy.text(pal, u.name()))
			}
		}
	}
	writePolicies(p, v.Policies)
}

func (sp servicePortView) writeText(p *printer) {
	head := fmt.Sprintf("port %d", sp.Port)
	if sp.Name != "" {
		head += "/" + sp.Name
	}
	if sp.AppProtocol != "" {
		head += "  appProtocol " + sp.AppProtocol
	}
	p.line(1, "%s", head)
	if sp.Winner == "" {
		p.line(2, "no mesh route is bound")
		return
	}
	p.line(2, "applies: %s", sp.Winner)
	var rows [][]string
	add := func(role string, rs []meshRouteView, note string) {
		for _, r := range rs {
			rows = append(rows, []string{role, r.Route.String(), r.ParentRef, note})
		}
	}
	add("producer", sp.Producers, "")
	add("consumer", sp.Consumers, "")
	add(p.pal.bad.Sprint("conflicted"), sp.Conflicted, "lost to "+sp.Winner+" (GRPCRoute > HTTPRoute > TLSRoute > TCPRoute)")
	p.table(2, nil, rows)
}
