package lint

// Rules lists every rule, sorted by id. Adding a rule means adding its file
// and one line here.
func Rules() []*Rule {
	return []*Rule{
		backendNotFound,
		backendPortNotFound,
		backendRefNotPermitted,
		backendServiceNoPort,
		backendUnsupportedKind,
		crdValidation,
		deprecatedAPIVersion,
		featureUnsupported,
		gatewayClassNotFound,
		legacyBackendFields,
		listenerCertificateInvalid,
		listenerConflict,
		listenerInvalidRouteKinds,
		listenerNoRoutes,
		listenerUnsupportedProtocol,
		listenerSetNotAccepted,
		meshHostnamesIgnored,
		meshRouteTypeConflict,
		meshRuleToParent,
		namespaceLabelsUnknown,
		objectDuplicate,
		parentRefHostnameMismatch,
		parentRefNoMatch,
		parentRefNotAllowed,
		parentRefNotFound,
		refUnlisted,
		referenceGrantUnused,
		routeMatchShadowed,
		routeNotAttached,
		ruleAllWeightsZero,
		ruleNameDuplicate,
		unknownField,
		yaml11Boolean,
	}
}

// Lookup returns the rule with the given id.
func Lookup(id string) *Rule {
	for _, r := range Rules() {
		if r.ID == id {
			return r
		}
	}
	return nil
}
