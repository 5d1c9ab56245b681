package resolve

import "slices"

// GatewayMerger serves several Gateways it judges from one proxy, whose
// listeners then take part in one another's TLS overlaps as a Gateway's
// own do (OverlappingTLSConfig). The core asks it once every Gateway's own
// listener conflicts are detected, before it decides which listeners are
// programmed; it may mark listeners conflicted across the Gateways of a
// group (Builder.MarkConflicted).
type GatewayMerger interface {
	Implementation
	// MergeGateways returns gateways (those it judges, in the graph's
	// order) grouped by the proxy they share; a Gateway in no group has
	// one of its own.
	MergeGateways(b *Builder, gateways []*GatewayResult) [][]*GatewayResult
}

// MarkConflicted writes the listener conflicted with another, as the core
// writes its own conflicts (Conflicted=True, Accepted=False), unless it is
// conflicted already.
func (b *Builder) MarkConflicted(l *Listener, reason Reason, with *Listener) {
	markConflicted(l, reason, with)
}

// mergeGateways groups the Gateways that share one proxy (GatewayMerger);
// every other Gateway is a group of its own.
func (g *Graph) mergeGateways(b *Builder) [][]*GatewayResult {
	var groups [][]*GatewayResult
	grouped := map[*GatewayResult]bool{}
	for _, impl := range g.opts.Implementations {
		merger, ok := impl.(GatewayMerger)
		if !ok {
			continue
		}
		judged := slices.DeleteFunc(slices.Clone(g.Gateways), func(gw *GatewayResult) bool {
			judge := gw.Judge.steps
			return judge == nil || judge.Name() != impl.Name()
		})
		for _, group := range merger.MergeGateways(b, judged) {
			groups = append(groups, group)
			for _, gw := range group {
				grouped[gw] = true
			}
		}
	}
	for _, gw := range g.Gateways {
		if !grouped[gw] {
			groups = append(groups, []*GatewayResult{gw})
		}
	}
	return groups
}

// allListeners are the listeners of a group of merged Gateways.
func allListeners(group []*GatewayResult) []*Listener {
	var out []*Listener
	for _, gw := range group {
		out = append(out, gw.AllListeners()...)
	}
	return out
}
