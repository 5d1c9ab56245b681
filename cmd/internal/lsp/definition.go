package lsp

import (
	"fmt"

	"github.com/gwlint/gwlint/resolve"
)

// place is a field of an object: where a definition or reference is.
type place struct {
	obj  resolve.Object
	path string // "" for the object itself
}

// definition is what the reference at the spot names: parentRef →
// Gateway (its listener, when the parentRef selects one), backendRef →
// Service (its port), certificateRef → Secret (or what creates it),
// targetRef → the target, gatewayClassName → GatewayClass.
func definition(s spot) (place, bool) {
	if r := route(s.graph, s.obj); r != nil {
		if p := parentAt(r, s.path); p != nil {
			return parentDefinition(p)
		}
		if _, b := backendAt(r, s.path); b != nil {
			return backendDefinition(b)
		}
	}
	if gw := gateway(s.graph, s.obj); gw != nil {
		if s.path == classNamePath && gw.Class != nil {
			return place{obj: gw.Class}, true
		}
		if l := listenerAt(gw, s.path); l != nil {
			if c := certRefAt(l, s.path); c != nil {
				return refDefinition(s.graph, c.Target, c.Generation)
			}
		}
	}
	if p := policy(s.graph, s.obj); p != nil {
		if t := targetAt(p, s.path); t != nil && t.Object != nil {
			return place{obj: t.Object}, true
		}
	}
	return place{}, false
}

func parentDefinition(p *resolve.ParentResult) (place, bool) {
	var owner resolve.Object
	switch {
	case p.Gateway != nil:
		owner = p.Gateway.Gateway
	case p.ListenerSet != nil:
		owner = p.ListenerSet.ListenerSet
	case p.Service != nil:
		return place{obj: p.Service.Service}, true
	default:
		return place{}, false
	}
	if len(p.Listeners) == 1 {
		return place{obj: owner, path: p.Listeners[0].Listener.Path}, true
	}
	return place{obj: owner}, true
}

func backendDefinition(b *resolve.BackendResult) (place, bool) {
	if b.Service == nil {
		if obj := b.Object(); obj != nil {
			return place{obj: obj}, true
		}
		return place{}, false
	}
	if b.Ref.Port != nil {
		for i, port := range b.Service.Spec.Ports {
			if port.Port == int32(*b.Ref.Port) {
				return place{obj: b.Service, path: fmt.Sprintf("spec.ports[%d]", i)}, true
			}
		}
	}
	return place{obj: b.Service}, true
}

// refDefinition is the object a reference names, or the object that
// will create it.
func refDefinition(g *resolve.Graph, target resolve.ObjectRef, gen *resolve.Generation) (place, bool) {
	if obj, presence := g.Lookup(target); presence == resolve.Present && obj != nil {
		return place{obj: obj}, true
	}
	if gen != nil && gen.By != nil {
		return place{obj: gen.By}, true
	}
	return place{}, false
}

// references are the parentRefs attached to the listener at the spot.
func references(s spot) []place {
	gw := gateway(s.graph, s.obj)
	if gw == nil {
		return nil
	}
	l := listenerAt(gw, s.path)
	if l == nil {
		return nil
	}
	out := make([]place, 0, len(l.Attached))
	for _, p := range l.Attached {
		out = append(out, place{obj: p.Route.Route, path: p.Path})
	}
	return out
}
