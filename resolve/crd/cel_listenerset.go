package crd

// CEL rules of ListenerSet beyond the listener rules it shares with
// Gateway (cel_common.go).

func listenerSetRules() map[string]celImpl {
	return map[string]celImpl{
		// spec.listeners: unlike a Gateway's, a ListenerSet listener's port is
		// optional.
		`self.all(l1, !has(l1.port) || self.exists_one(l2, has(l2.port) && l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))`: {eval: func(self any) cbool {
			ls, err := celList(self)
			if err != nil {
				return errCBool(err)
			}
			return all(ls, func(l1 any) cbool {
				return or(not(celHas(l1, "port")), existsOne(ls, func(l2 any) cbool {
					return and(celHas(l2, "port"), sameListenerEndpoint(l1, l2))
				}))
			})
		}},
	}
}
