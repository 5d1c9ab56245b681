package lint

// Rules lists every rule, sorted by id. Adding a rule means adding its file
// and one line here.
func Rules() []*Rule {
	return []*Rule{
		apiVersionNotServed,
		backendExternalNameService,
		backendNotFound,
		backendPortNotFound,
		backendRefNotPermitted,
		backendRefused,
		backendServiceNoPort,
		backendUnsupportedKind,
		backendTLSPolicyCAInvalid,
		backendTLSPolicyConflicted,
		backendTLSPolicyTargetNotFound,
		crdValidation,
		crdsReleaseMixed,
		crdsReleaseUnknown,
		deprecatedAPIVersion,
		envoyProxyRefused,
		experimentalChannelOnly,
		featureUnsupported,
		filterValueInvalid,
		gatewayAddressUnsupported,
		gatewayParametersInvalid,
		gatewayClassNotFound,
		implementationInferred,
		legacyBackendFields,
		listenerCACertificateInvalid,
		listenerCertificateExpired,
		listenerCertificateHostnameMismatch,
		listenerCertificateInvalid,
		listenerConflict,
		listenerInvalidRouteKinds,
		listenerNoRoutes,
		listenerSelectorInvalid,
		listenerTLSOverlap,
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
		parentRefUnsupportedKind,
		policyConflicted,
		policyImplementationMismatch,
		policySectionNotFound,
		policySelectorOnGateway,
		policyTargetKindUnsupported,
		policyTargetNamespace,
		policyTargetNotFound,
		refUnlisted,
		referenceGrantUnused,
		routeConflict,
		routeFilterNotFound,
		routeFilterRefused,
		routeMatchShadowed,
		routeNotAttached,
		routeRegexInvalid,
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
