package envoygateway

import (
	"fmt"

	"github.com/gwlint/gwlint/resolve"
)

// MergeGateways groups the Gateways of a GatewayClass whose EnvoyProxy sets
// mergeGateways, which share one proxy, among those it has not refused
// for their parameters or addresses
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/translator.go
// GetRelevantGateways: only those get listeners). Every other Gateway is
// a group of its own. Groups and their Gateways keep the order given.
//
// It marks the listeners of merged Gateways that repeat the protocol,
// hostname and port of an earlier one conflicted (HostnameConflict;
// validate.go validateConflictedMergedListeners): one proxy cannot serve
// both. Listeners refused for their own spec take no part.
func (Implementation) MergeGateways(b *resolve.Builder, gateways []*resolve.GatewayResult) [][]*resolve.GatewayResult {
	var groups [][]*resolve.GatewayResult
	merged := map[string]int{} // class name -> its group
	for _, gw := range gateways {
		if (gw.Parameters == nil || gw.Parameters.OK()) && gw.UnsupportedAddress() == "" {
			if proxy := classProxy(b.Graph(), gw.Class); proxy != nil && proxy.MergesGateways() {
				if i, ok := merged[gw.Class.Ref.Name]; ok {
					groups[i] = append(groups[i], gw)
					continue
				}
				merged[gw.Class.Ref.Name] = len(groups)
			}
		}
		groups = append(groups, []*resolve.GatewayResult{gw})
	}
	for _, group := range groups {
		markMergedConflicts(b, group)
	}
	return groups
}

// markMergedConflicts marks the listeners of a group of merged Gateways
// that repeat the protocol, hostname and port of an earlier one.
func markMergedConflicts(b *resolve.Builder, group []*resolve.GatewayResult) {
	if len(group) < 2 {
		return
	}
	seen := map[string]*resolve.Listener{}
	for _, gw := range group {
		for _, l := range gw.AllListeners() {
			if l.InvalidOnItsOwn() && !l.Conflicted.True() {
				continue
			}
			key := fmt.Sprintf("%s:%s:%d", l.Protocol, l.HostnameString(), l.Port)
			if first, ok := seen[key]; ok {
				b.MarkConflicted(l, resolve.ReasonHostnameConflict, first)
				continue
			}
			seen[key] = l
		}
	}
}
