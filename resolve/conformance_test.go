package resolve_test

// Conformance harness: replays the status assertions of the Gateway API
// conformance suite (sigs.k8s.io/gateway-api/conformance, the release that
// matches the pinned API) against the statuses the resolver computes.
//
// Each case feeds the resolver what the suite applies for one test —
// base/manifests.yaml, the test's own manifests read straight from the module
// cache, plus testdata/conformance/ files modelling what the suite creates in
// Go (the GatewayClass, TLS Secrets, CA ConfigMaps, routes created mid-test,
// objects as mutated by a test) — and then runs checks that mirror the
// suite's helpers in utils/kubernetes/helpers.go with their exact semantics:
// conditions match as a superset (type, and status/reason unless empty),
// every condition must carry observedGeneration == metadata.generation where
// the helper polls for it, attachedRoutes and listener counts are exact,
// an unset expected supportedKinds demands an empty actual list, and route
// parents match on controllerName, explicit group/kind pointers, name and
// namespace (nil allowed only when the helper's namespaceRequired is false),
// never on sectionName or port.
//
// Cases the resolver does not (yet) get right are listed in
// knownDivergences: they still run, must still fail (an entry that starts
// passing fails the suite so it gets removed), and log what differs. What the
// resolver cannot decide offline at all is listed in notModelled, and
// TestConformanceCoverage checks that every conformance test is either a
// case or accounted for there.

import (
	"bytes"
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/internal/conformancetest"
)

// knownDivergences are cases where the resolver's status differs from what
// the conformance suite asserts, keyed by case name, with the reason. The
// cases still run and must still fail; remove an entry once it passes.
var knownDivergences = map[string]string{}

// notModelled lists conformance tests (or parts of them, "Test/part") whose
// assertions the resolver cannot decide offline or deliberately does not
// model, with the reason. Everything else in tests/*.go is a case below.
var notModelled = []struct{ name, reason string }{
	// Whole features the resolver does not evaluate.
	{"GatewayInfrastructureMetadata/generated-resources", "labels and annotations on the Pods, Services and ServiceAccounts " +
		"an implementation generates are not status"},
	{"GatewayStaticAddresses/usable-and-unusable", "after step 1, the usable and unusable address pools come from the suite's configuration " +
		"(PLACEHOLDER_USABLE_ADDRS, PLACEHOLDER_UNUSABLE_ADDRS): only the implementation knows which it can use; the resolver does not evaluate them"},
	{"GatewayOptionalAddressValue/address", addressesNotModelled},
	{"Suite/GatewayAddresses", addressesNotModelled + ". Every GatewayAnd*RoutesMustBeAccepted and WaitForGatewayAddress " +
		"also waits for one; the harness checks only their freshness part"},
	{"Suite/PodReadiness", "NamespacesMustBeReady also waits for every Pod to be Ready; Pods are not inputs, nsReady checks the Gateway half"},
	{"mesh/*", "tests/mesh/*.go assert no status at all (traffic only)"},
}

const (
	addressesNotModelled = "status.addresses: the address a Gateway gets is assigned by the implementation; the resolver writes none"
)

// --------------------------------------------------------------------------
// Cases.

const (
	infraNS = "gateway-conformance-infra"
	appNS   = "gateway-conformance-app-backend"
	webNS   = "gateway-conformance-web-backend"

	// confClass is the name of the suite's GatewayClass
	// (testdata/conformance/gatewayclass.yaml), its GatewayClassName
	// (placeholders are not substituted).
	confClass = "{GATEWAY_CLASS_NAME}"
	// skipReadiness is kubernetes.GatewayExcludedFromReadinessChecks.
	skipReadiness = "gateway-api/skip-this-for-readiness"

	testdataDir = "testdata/conformance"
)

var suiteObjects = conformancetest.SuiteObjects(testdataDir)

type confCase struct {
	// name is the conformance test's ShortName, with "/part" when the case
	// covers one subtest.
	name string
	// source is the conformance test file, relative to the module root.
	source string
	// manifests are the test's Manifests, relative to the conformance
	// module root; base/manifests.yaml is always loaded first.
	manifests []string
	// extra are testdata files holding objects the test creates in Go.
	extra []string
	// replace are testdata files holding objects as the test mutates them;
	// each replaces the object of the same kind, namespace and name.
	replace []string
	// remove are objects the test deletes ("Kind ns/name") before the
	// assertions.
	remove []string
	// without are the features the implementation under test lacks
	// (resolve.Options.WithoutFeatures): the suite's *NotSupported tests
	// run only then.
	without []features.FeatureName
	checks  []check
}

// simple builds the common case of one test file with the same name as its
// manifest.
func simple(name, file string, checks ...check) confCase {
	return confCase{name: name, source: "tests/" + file + ".go", manifests: []string{"tests/" + file + ".yaml"}, checks: checks}
}

// httpBasic is the shape of most HTTPRoute feature tests: the routes attach
// to Gateway same-namespace (GatewayAndHTTPRoutesMustBeAccepted) and, when
// resolved is set, carry ResolvedRefs=True/ResolvedRefs.
func httpBasic(name, file string, resolved bool, routes ...string) confCase {
	checks := []check{gwRoutesAccepted(kHTTP, "same-namespace", routes...)}
	if resolved {
		for _, r := range routes {
			checks = append(checks, resolvedRefs(kHTTP, r, "same-namespace"))
		}
	}
	return simple(name, file, checks...)
}

// grpcBasic: GatewayAndRoutesMustBeAccepted(same-namespace, &GRPCRoute{}).
func grpcBasic(name, file string, routes ...string) confCase {
	return simple(name, file, gwRoutesAccepted(kGRPC, "same-namespace", routes...))
}

// btlsRoutes covers the route half of a BackendTLSPolicy test (the policy
// half is in btlsPolicies): NamespacesMustBeReady(infra),
// GatewayAndRoutesMustBeAccepted and, usually, ResolvedRefs=True.
func btlsRoutes(name, file, gw, route string, resolved bool) confCase {
	checks := []check{nsReady(infraNS), gwRoutesAccepted(kHTTP, gw, route)}
	if resolved {
		checks = append(checks, resolvedRefs(kHTTP, route, gw))
	}
	c := simple(name, file, checks...)
	return c
}

func withSource(c confCase, source string) confCase { c.source = source; return c }

const (
	kHTTP = "HTTPRoute"
	kGRPC = "GRPCRoute"
	kTLS  = "TLSRoute"
	kTCP  = "TCPRoute"
	kUDP  = "UDPRoute"

	cAccepted     = "Accepted"
	cResolvedRefs = "ResolvedRefs"
	cProgrammed   = "Programmed"
	cConflicted   = "Conflicted"
)

var conformanceCases = []confCase{
	// ---- Gateway and listener tests ---------------------------------------

	// GatewayListenerUnsupportedProtocol, tests/gateway-invalid-listeners-unsupported-protocol.go.
	withSource(confCase{name: "GatewayListenerUnsupportedProtocol/no-accepted-listener",
		manifests: []string{"tests/gateway-invalid-listeners-unsupported-protocol.yaml"},
		checks: []check{
			gwLatest("gateway-only-unsupported-protocols"),
			gwCond("gateway-only-unsupported-protocols", False(cAccepted, "ListenersNotValid")),
			gwListeners("gateway-only-unsupported-protocols",
				lis{"invalid", 0, nil, []cond{False(cAccepted, "UnsupportedProtocol")}}),
		}}, "tests/gateway-invalid-listeners-unsupported-protocol.go"),
	withSource(confCase{name: "GatewayListenerUnsupportedProtocol/some-accepted-listener",
		manifests: []string{"tests/gateway-invalid-listeners-unsupported-protocol.yaml"},
		checks: []check{
			gwLatest("gateway-supported-and-unsupported-protocols"),
			gwCond("gateway-supported-and-unsupported-protocols", True(cAccepted, "ListenersNotValid")),
			gwListeners("gateway-supported-and-unsupported-protocols",
				lis{"http", 0, kinds(kHTTP), []cond{True(cAccepted, "Accepted")}},
				lis{"invalid", 0, nil, []cond{False(cAccepted, "UnsupportedProtocol")}}),
		}}, "tests/gateway-invalid-listeners-unsupported-protocol.go"),

	// GatewayInvalidRouteKind, tests/gateway-invalid-route-kind.go.
	withSource(confCase{name: "GatewayInvalidRouteKind/only-invalid-kind",
		manifests: []string{"tests/gateway-invalid-route-kind.yaml"},
		checks: []check{gwListeners("gateway-only-invalid-route-kind",
			lis{"http", 0, nil, []cond{False(cResolvedRefs, "InvalidRouteKinds")}})},
	}, "tests/gateway-invalid-route-kind.go"),
	withSource(confCase{name: "GatewayInvalidRouteKind/supported-and-invalid-kind",
		manifests: []string{"tests/gateway-invalid-route-kind.yaml"},
		checks: []check{gwListeners("gateway-supported-and-invalid-route-kind",
			lis{"http", 0, kinds(kHTTP), []cond{False(cResolvedRefs, "InvalidRouteKinds")}})},
	}, "tests/gateway-invalid-route-kind.go"),

	// GatewayInvalidTLSConfiguration, tests/gateway-invalid-tls-configuration.go.
	invalidTLS("nonexistent-secret"),
	invalidTLS("unsupported-group"),
	invalidTLS("unsupported-kind"),
	invalidTLS("malformed-secret"),

	// GatewayInvalidTLSBackendConfiguration, tests/gateway-invalid-tls-backend-configuration.go.
	invalidTLSBackend("nonexistent-secret", "InvalidClientCertificateRef"),
	invalidTLSBackend("unsupported-group", "InvalidClientCertificateRef"),
	invalidTLSBackend("unsupported-kind", "InvalidClientCertificateRef"),
	invalidTLSBackend("malformed-secret", "InvalidClientCertificateRef"),
	invalidTLSBackend("missing-reference-grant", "RefNotPermitted"),

	// GatewaySecret*ReferenceGrant, tests/gateway-secret-*.go.
	simple("GatewaySecretMissingReferenceGrant", "gateway-secret-missing-reference-grant",
		gwListeners("gateway-secret-missing-reference-grant",
			lis{"https", 0, kinds(kHTTP), []cond{False(cResolvedRefs, "RefNotPermitted")}})),
	simple("GatewaySecretInvalidReferenceGrant", "gateway-secret-invalid-reference-grant",
		gwListeners("gateway-secret-invalid-reference-grant",
			lis{"https", 0, kinds(kHTTP), []cond{False(cResolvedRefs, "RefNotPermitted")}})),
	simple("GatewaySecretReferenceGrantAllInNamespace", "gateway-secret-reference-grant-all-in-namespace",
		gwListeners("gateway-secret-reference-grant-all-in-namespace",
			lis{"https", 0, kinds(kHTTP), []cond{True(cProgrammed, "Programmed"), True(cResolvedRefs, "")}})),
	simple("GatewaySecretReferenceGrantSpecific", "gateway-secret-reference-grant-specific",
		gwListeners("gateway-secret-reference-grant-specific",
			lis{"https", 0, kinds(kHTTP), []cond{True(cProgrammed, "Programmed"), True(cResolvedRefs, "")}})),

	// GatewayTLSBackendClientCertificate, tests/gateway-tls-backend-client-certificate.go.
	simple("GatewayTLSBackendClientCertificate/gateway-and-route", "gateway-tls-backend-client-certificate",
		nsReady(infraNS),
		gwRoutesAccepted(kHTTP, "gateway-tls-backend-client-certificate", "gateway-tls-backend-client-certificate"),
		resolvedRefs(kHTTP, "gateway-tls-backend-client-certificate", "gateway-tls-backend-client-certificate"),
		gwCond("gateway-tls-backend-client-certificate", True(cResolvedRefs, "ResolvedRefs"))),
	simple("GatewayTLSBackendClientCertificate/policy-status", "gateway-tls-backend-client-certificate",
		btlsCond("gateway-tls-backend-client-certificate-test", "gateway-tls-backend-client-certificate", policyAccepted)),

	// GatewayInfrastructureMetadata, tests/gateway-infrastructure.go (label
	// propagation to generated resources is in notModelled).
	withSource(confCase{name: "GatewayInfrastructureMetadata/accepted",
		manifests: []string{"tests/gateway-infrastructure.yaml"},
		checks: []check{nsReady(infraNS), gwLatest("gateway-with-infrastructure-metadata"),
			gwCond("gateway-with-infrastructure-metadata", True(cAccepted, ""))},
	}, "tests/gateway-infrastructure.go"),

	// GatewayOptionalAddressValue, tests/gateway-optional-address-value.go
	// (the address itself is in notModelled).
	simple("GatewayOptionalAddressValue/ready", "gateway-optional-address-value",
		nsReady(infraNS), gwLatest("gateway-without-address-value")),

	// GatewayModifyListeners, tests/gateway-modify-listeners.go: the state
	// before each Patch, then after it (testdata/conformance/mutated/).
	simple("GatewayModifyListeners/before-patch", "gateway-modify-listeners",
		nsReady(infraNS), gwLatest("gateway-add-listener"), gwLatest("gateway-remove-listener")),
	func() confCase {
		c := simple("GatewayModifyListeners/add-listener", "gateway-modify-listeners",
			nsReady(infraNS),
			gwListeners("gateway-add-listener",
				lis{"https", 1, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}},
				lis{"http", 1, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}}),
			gwLatest("gateway-add-listener"))
		c.replace = []string{testdataDir + "/mutated/gateway-add-listener.yaml"}
		return c
	}(),
	func() confCase {
		c := simple("GatewayModifyListeners/remove-listener", "gateway-modify-listeners",
			nsReady(infraNS),
			gwListeners("gateway-remove-listener",
				lis{"http", 1, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}}),
			gwLatest("gateway-remove-listener"))
		c.replace = []string{testdataDir + "/mutated/gateway-remove-listener.yaml"}
		return c
	}(),

	// suite.Setup: GWCMustHaveAcceptedConditionTrue on the suite's class.
	{name: "Suite/GatewayClassAccepted", source: "utils/suite/suite.go", checks: []check{gwcAccepted(confClass, "True")}},

	// GatewayClassObservedGenerationBump, tests/gatewayclass-observed-generation-bump.go.
	simple("GatewayClassObservedGenerationBump/before-patch", "gatewayclass-observed-generation-bump",
		gwcAccepted("gatewayclass-observed-generation-bump", "")),
	func() confCase {
		c := simple("GatewayClassObservedGenerationBump/after-patch", "gatewayclass-observed-generation-bump",
			gwcAccepted("gatewayclass-observed-generation-bump", ""))
		c.replace = []string{testdataDir + "/mutated/gatewayclass-observed-generation-bump.yaml"}
		return c
	}(),

	// GatewayStaticAddresses, tests/gateway-static-addresses.go, step 1: an
	// address of a type the implementation does not support.
	withSource(simple("GatewayStaticAddresses/unsupported-type", "gateway-static-addresses",
		gwCond("gateway-static-addresses", False("Accepted", "UnsupportedAddress"))), "tests/gateway-static-addresses.go"),

	// GatewayObservedGenerationBump, tests/gateway-observed-generation-bump.go.
	simple("GatewayObservedGenerationBump/before-patch", "gateway-observed-generation-bump",
		nsReady(infraNS), gwLatest("gateway-observed-generation-bump")),
	func() confCase {
		c := simple("GatewayObservedGenerationBump/after-patch", "gateway-observed-generation-bump",
			nsReady(infraNS), gwLatest("gateway-observed-generation-bump"))
		c.replace = []string{testdataDir + "/mutated/gateway-observed-generation-bump.yaml"}
		return c
	}(),

	// GatewayWithAttachedRoutes, tests/gateway-with-attached-routes.go.
	simple("GatewayWithAttachedRoutes/one-route", "gateway-with-attached-routes",
		gwListeners("gateway-with-one-attached-route",
			lis{"http", 1, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}})),
	simple("GatewayWithAttachedRoutes/two-routes", "gateway-with-attached-routes",
		gwListeners("gateway-with-two-attached-routes",
			lis{"http", 2, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}}),
		routeCond(kHTTP, "http-route-not-accepted", "gateway-with-two-attached-routes", False(cAccepted, "NoMatchingListenerHostname"))),
	simple("GatewayWithAttachedRoutes/unresolved-refs", "gateway-with-attached-routes",
		gwListeners("unresolved-gateway-with-one-attached-unresolved-route",
			lis{"tls", 1, kinds(kHTTP), []cond{False(cProgrammed, ""), False(cResolvedRefs, "")}}),
		routeCond(kHTTP, "http-route-4", "unresolved-gateway-with-one-attached-unresolved-route", False(cResolvedRefs, ""))),

	// GatewayWithAttachedRoutesWithPort8080, tests/gateway-with-attached-routes.go.
	withSource(simple("GatewayWithAttachedRoutesWithPort8080", "gateway-with-attached-routes-with-port-8080",
		gwListeners("gateway-with-two-listeners-and-one-attached-route",
			lis{"http-unattached", 0, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}},
			lis{"http", 1, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}})),
		"tests/gateway-with-attached-routes.go"),

	// GatewayHTTPListenerIsolation, tests/gateway-http-listener-isolation.go.
	listenerIsolation("listener-hostnames", "http-listener-isolation", ""),
	listenerIsolation("intersecting-hostnames", "http-listener-isolation-with-hostname-intersection", "-with-hostname-intersection"),

	// Frontend client-certificate validation (spec.tls.frontend).
	// GatewayFrontendClientCertificateValidation, tests/gateway-with-clientcertificate-validation.go.
	withSource(simple("GatewayFrontendClientCertificateValidation/routes", "gateway-with-clientcertificate-validation",
		gwRoutesAccepted(kHTTP, "client-validation-default",
			"client-certificate-validation-https-test", "client-certificate-validation-https-test-no-hostname"),
		resolvedRefs(kHTTP, "client-certificate-validation-https-test", "client-validation-default"),
		resolvedRefs(kHTTP, "client-certificate-validation-https-test-no-hostname", "client-validation-default")),
		"tests/gateway-with-clientcertificate-validation.go"),
	// GatewayFrontendClientCertificateValidationInsecureFallback, tests/gateway-with-clientcertificate-validation-insecure-fallback.go.
	simple("GatewayFrontendClientCertificateValidationInsecureFallback/routes", "gateway-with-clientcertificate-validation-insecure-fallback",
		gwRoutesAccepted(kHTTP, "client-validation-insecure-fallback",
			"client-cert-validation-insecure-fallback-test", "client-cert-validation-insecure-fallback-test-no-hostname"),
		resolvedRefs(kHTTP, "client-cert-validation-insecure-fallback-test", "client-validation-insecure-fallback"),
		resolvedRefs(kHTTP, "client-cert-validation-insecure-fallback-test-no-hostname", "client-validation-insecure-fallback")),
	// GatewayFrontendInvalidDefaultClientCertificateValidation, tests/gateway-invalid-default-frontend-client-certificate-validation.go.
	simple("GatewayFrontendInvalidDefaultClientCertificateValidation/http-listener", "gateway-invalid-default-frontend-client-certificate-validation",
		gwLatest("invalid-default-client-validation-config"),
		gwListenerConds("invalid-default-client-validation-config", names("http"), acceptedLC()...)),
	simple("GatewayFrontendClientCertificateValidationInsecureFallback/InsecureFrontendValidationMode",
		"gateway-with-clientcertificate-validation-insecure-fallback",
		gwCond("client-validation-insecure-fallback", True("InsecureFrontendValidationMode", "ConfigurationChanged"))),
	simple("GatewayFrontendInvalidDefaultClientCertificateValidation/https-listener", "gateway-invalid-default-frontend-client-certificate-validation",
		gwListenerConds("invalid-default-client-validation-config", names("https"), invalidCA("InvalidCACertificateRef")...)),
	// GatewayInvalidFrontendClientCertificateValidation, tests/gateway-with-invalid-clientcertificate-validation.go.
	withSource(simple("GatewayInvalidFrontendClientCertificateValidation/valid-listener", "gateway-with-invalid-clientcertificate-validation",
		gwListenerConds("gateway-with-invalid-client-cert-validation", names("https"), acceptedLC()...)),
		"tests/gateway-with-invalid-clientcertificate-validation.go"),
	withSource(simple("GatewayInvalidFrontendClientCertificateValidation/invalid-ca-listeners", "gateway-with-invalid-clientcertificate-validation",
		gwListenerConds("gateway-with-invalid-client-cert-validation", names("https-unresolved"), invalidCA("InvalidCACertificateRef")...),
		gwListenerConds("gateway-with-invalid-client-cert-validation", names("https-invalid-kind"), invalidCA("InvalidCACertificateKind")...),
		gwListenerConds("gateway-with-invalid-client-cert-validation", names("https-grant-missing"), invalidCA("RefNotPermitted")...)),
		"tests/gateway-with-invalid-clientcertificate-validation.go"),

	// GatewayInvalidParametersRef, tests/gateway-infrastructure.go: a kind the
	// class does not take (testdata/conformance/gatewayclass.yaml).
	withSource(simple("GatewayInvalidParametersRef", "gateway-invalid-parameters-ref",
		gwLatest("gateway-invalid-parameters-ref"),
		gwCond("gateway-invalid-parameters-ref", False(cAccepted, "InvalidParameters"))),
		"tests/gateway-infrastructure.go"),

	// ---- HTTPRoute status tests -------------------------------------------

	// HTTPRouteDisallowedKind, tests/httproute-disallowed-kind.go.
	simple("HTTPRouteDisallowedKind", "httproute-disallowed-kind",
		nsReady(infraNS),
		resolvedRefs(kHTTP, "disallowed-kind", "tlsroutes-only"),
		routeCond(kHTTP, "disallowed-kind", "tlsroutes-only", False(cAccepted, "NotAllowedByListeners")),
		noAccepted(kHTTP, "disallowed-kind"),
		zeroRoutes("tlsroutes-only")),
	// HTTPRouteInvalidCrossNamespaceParentRef, tests/httproute-invalid-cross-namespace-parent-ref.go.
	simple("HTTPRouteInvalidCrossNamespaceParentRef", "httproute-invalid-cross-namespace-parent-ref",
		resolvedRefs(kHTTP, webNS+"/invalid-cross-namespace-parent-ref", "same-namespace"),
		routeCond(kHTTP, webNS+"/invalid-cross-namespace-parent-ref", "same-namespace", False(cAccepted, "NotAllowedByListeners")),
		noAccepted(kHTTP, webNS+"/invalid-cross-namespace-parent-ref"),
		zeroRoutes("same-namespace")),
	// HTTPRouteInvalidParentRefNotMatchingListenerPort, tests/httproute-invalid-parentref-not-matching-listener-port.go.
	simple("HTTPRouteInvalidParentRefNotMatchingListenerPort", "httproute-invalid-parentref-not-matching-listener-port",
		resolvedRefs(kHTTP, "httproute-listener-not-matching-route-port", "same-namespace"),
		routeCond(kHTTP, "httproute-listener-not-matching-route-port", "same-namespace", False(cAccepted, "NoMatchingParent")),
		noAccepted(kHTTP, "httproute-listener-not-matching-route-port"),
		zeroRoutes("same-namespace")),
	// HTTPRouteInvalidParentRefNotMatchingSectionName, tests/httproute-invalid-parentref-not-matching-section-name.go.
	simple("HTTPRouteInvalidParentRefNotMatchingSectionName", "httproute-invalid-parentref-not-matching-section-name",
		routeCond(kHTTP, "httproute-listener-not-matching-section-name", "same-namespace", False(cAccepted, "NoMatchingParent")),
		noAccepted(kHTTP, "httproute-listener-not-matching-section-name"),
		zeroRoutes("same-namespace")),
	// HTTPRouteInvalidParentRefSectionNameNotMatchingPort, tests/httproute-invalid-parentref-section-name-not-matching-port.go.
	simple("HTTPRouteInvalidParentRefSectionNameNotMatchingPort", "httproute-invalid-parentref-section-name-not-matching-port",
		routeCond(kHTTP, "httproute-listener-section-name-not-matching-port", "gateway-with-one-not-matching-port-and-section-name-route",
			False(cAccepted, "NoMatchingParent")),
		noAccepted(kHTTP, "httproute-listener-section-name-not-matching-port"),
		zeroRoutes("gateway-with-one-not-matching-port-and-section-name-route")),

	// HTTPRouteHostnameIntersection, tests/httproute-hostname-intersection.go.
	simple("HTTPRouteHostnameIntersection/intersecting-routes", "httproute-hostname-intersection",
		nsReady(infraNS),
		gwRoutesAccepted(kHTTP, "httproute-hostname-intersection",
			"specific-host-matches-listener-specific-host", "specific-host-matches-listener-wildcard-host",
			"wildcard-host-matches-listener-specific-host", "wildcard-host-matches-listener-wildcard-host"),
		resolvedRefs(kHTTP, "specific-host-matches-listener-specific-host", "httproute-hostname-intersection"),
		resolvedRefs(kHTTP, "specific-host-matches-listener-wildcard-host", "httproute-hostname-intersection"),
		resolvedRefs(kHTTP, "wildcard-host-matches-listener-specific-host", "httproute-hostname-intersection"),
		resolvedRefs(kHTTP, "wildcard-host-matches-listener-wildcard-host", "httproute-hostname-intersection")),
	simple("HTTPRouteHostnameIntersection/no-intersecting-hosts", "httproute-hostname-intersection",
		gwRoutesAccepted(kHTTP, "httproute-hostname-intersection"),
		routeParents(kHTTP, "no-intersecting-hosts", true,
			gwParent("httproute-hostname-intersection", False(cAccepted, "NoMatchingListenerHostname")))),
	simple("HTTPRouteHostnameIntersection/attached-routes", "httproute-hostname-intersection",
		gwListeners("httproute-hostname-intersection",
			lis{"listener-1", 2, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}},
			lis{"listener-2", 1, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}},
			lis{"listener-3", 1, kinds(kHTTP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}})),
	simple("HTTPRouteHostnameIntersection/listener-without-hostname", "httproute-hostname-intersection",
		gwRoutesAccepted(kHTTP, "httproute-hostname-intersection-all", "httproute-hostname-intersection-all"),
		resolvedRefs(kHTTP, "httproute-hostname-intersection-all", "httproute-hostname-intersection-all")),

	// Backend reference failures: the route stays Accepted.
	// HTTPRouteInvalidNonExistentBackendRef, tests/httproute-invalid-nonexistent-backendref.go.
	simple("HTTPRouteInvalidNonExistentBackendRef", "httproute-invalid-nonexistent-backendref",
		gwRoutesAccepted(kHTTP, "same-namespace", "invalid-nonexistent-backend-ref"),
		routeCond(kHTTP, "invalid-nonexistent-backend-ref", "same-namespace", False(cResolvedRefs, "BackendNotFound"))),
	// HTTPRouteInvalidBackendRefUnknownKind, tests/httproute-invalid-backendref-unknown-kind.go.
	simple("HTTPRouteInvalidBackendRefUnknownKind", "httproute-invalid-backendref-unknown-kind",
		gwRoutesAccepted(kHTTP, "same-namespace", "invalid-backend-ref-unknown-kind"),
		routeCond(kHTTP, "invalid-backend-ref-unknown-kind", "same-namespace", False(cResolvedRefs, "InvalidKind"))),
	// HTTPRouteInvalidCrossNamespaceBackendRef, tests/httproute-invalid-cross-namespace-backend-ref.go.
	simple("HTTPRouteInvalidCrossNamespaceBackendRef", "httproute-invalid-cross-namespace-backend-ref",
		gwRoutesAccepted(kHTTP, "same-namespace", "invalid-cross-namespace-backend-ref"),
		routeCond(kHTTP, "invalid-cross-namespace-backend-ref", "same-namespace", False(cResolvedRefs, "RefNotPermitted"))),
	// HTTPRouteInvalidReferenceGrant, tests/httproute-invalid-reference-grant.go.
	simple("HTTPRouteInvalidReferenceGrant", "httproute-invalid-reference-grant",
		gwRoutesAccepted(kHTTP, "same-namespace", "reference-grant"),
		routeCond(kHTTP, "reference-grant", "same-namespace", False(cResolvedRefs, "RefNotPermitted"))),
	// HTTPRoutePartiallyInvalidViaInvalidReferenceGrant, tests/httproute-partially-invalid-via-invalid-reference-grant.go.
	simple("HTTPRoutePartiallyInvalidViaInvalidReferenceGrant", "httproute-partially-invalid-via-invalid-reference-grant",
		gwRoutesAccepted(kHTTP, "same-namespace", "invalid-reference-grant"),
		routeCond(kHTTP, "invalid-reference-grant", "same-namespace", False(cResolvedRefs, "RefNotPermitted"))),
	// HTTPRouteReferenceGrant, tests/httproute-reference-grant.go (after the
	// grant is deleted only traffic is asserted).
	httpBasic("HTTPRouteReferenceGrant", "httproute-reference-grant", true, "reference-grant"),
	// HTTPRouteCrossNamespace, tests/httproute-cross-namespace.go.
	simple("HTTPRouteCrossNamespace", "httproute-cross-namespace",
		gwRoutesAccepted(kHTTP, "backend-namespaces", webNS+"/cross-namespace"),
		resolvedRefs(kHTTP, webNS+"/cross-namespace", "backend-namespaces")),
	// HTTPRouteMultipleGateways, tests/httproute-multiple-gateways.go.
	simple("HTTPRouteMultipleGateways/same-namespace", "httproute-multiple-gateways",
		gwRoutesAccepted(kHTTP, "same-namespace", "multiple-gateways-shared-route", "same-namespace-dedicated-route")),
	simple("HTTPRouteMultipleGateways/all-namespaces", "httproute-multiple-gateways",
		gwRoutesAccepted(kHTTP, "all-namespaces", "multiple-gateways-shared-route", "all-namespaces-dedicated-route")),
	// HTTPRouteListenerHostnameMatching, tests/httproute-listener-hostname-matching.go.
	simple("HTTPRouteListenerHostnameMatching", "httproute-listener-hostname-matching",
		nsReady(infraNS),
		gwRoutesAccepted(kHTTP, "httproute-listener-hostname-matching", "backend-v1", "backend-v2", "backend-v3"),
		resolvedRefs(kHTTP, "backend-v1", "httproute-listener-hostname-matching"),
		resolvedRefs(kHTTP, "backend-v2", "httproute-listener-hostname-matching"),
		resolvedRefs(kHTTP, "backend-v3", "httproute-listener-hostname-matching")),
	// HTTPRouteListenerPortMatching, tests/httproute-listener-port-matching.go.
	simple("HTTPRouteListenerPortMatching", "httproute-listener-port-matching",
		nsReady(infraNS),
		gwRoutesAccepted(kHTTP, "httproute-listener-port-matching", "backend-v1", "backend-v2", "backend-v3"),
		resolvedRefs(kHTTP, "backend-v1", "httproute-listener-port-matching"),
		resolvedRefs(kHTTP, "backend-v2", "httproute-listener-port-matching"),
		resolvedRefs(kHTTP, "backend-v3", "httproute-listener-port-matching")),
	// HTTPRouteObservedGenerationBump, tests/httproute-observed-generation-bump.go.
	simple("HTTPRouteObservedGenerationBump/before-patch", "httproute-observed-generation-bump",
		nsReady(infraNS), routeLatest(kHTTP, "observed-generation-bump")),
	func() confCase {
		c := simple("HTTPRouteObservedGenerationBump/after-patch", "httproute-observed-generation-bump",
			routeCond(kHTTP, "observed-generation-bump", "same-namespace", True(cAccepted, "")),
			resolvedRefs(kHTTP, "observed-generation-bump", "same-namespace"),
			routeLatest(kHTTP, "observed-generation-bump"))
		c.replace = []string{testdataDir + "/mutated/httproute-observed-generation-bump.yaml"}
		return c
	}(),
	// HTTPRouteHTTPSListener, tests/httproute-https-listener.go.
	simple("HTTPRouteHTTPSListener", "httproute-https-listener",
		gwRoutesAccepted(kHTTP, "same-namespace-with-https-listener", "httproute-https-test", "httproute-https-test-no-hostname"),
		resolvedRefs(kHTTP, "httproute-https-test", "same-namespace-with-https-listener"),
		resolvedRefs(kHTTP, "httproute-https-test-no-hostname", "same-namespace-with-https-listener")),
	// HTTPRouteHTTPSListenerDetectMisdirectedRequests, tests/httproute-https-listener-detect-misdirected-requests.go.
	func() confCase {
		var checks []check
		var routes []string
		for i := 1; i <= 4; i++ {
			r := fmt.Sprintf("https-listener-detect-misdirected-requests-test-%d", i)
			routes = append(routes, r)
			checks = append(checks, resolvedRefs(kHTTP, r, "same-namespace-with-https-listener"))
		}
		checks = append([]check{gwRoutesAccepted(kHTTP, "same-namespace-with-https-listener", routes...)}, checks...)
		return simple("HTTPRouteHTTPSListenerDetectMisdirectedRequests", "httproute-https-listener-detect-misdirected-requests", checks...)
	}(),
	// HTTPRouteRedirectPortAndScheme, tests/httproute-redirect-port-and-scheme.go.
	simple("HTTPRouteRedirectPortAndScheme", "httproute-redirect-port-and-scheme",
		gwRoutesAccepted(kHTTP, "same-namespace", "http-route-for-listener-on-port-80"),
		resolvedRefs(kHTTP, "http-route-for-listener-on-port-80", "same-namespace"),
		gwRoutesAccepted(kHTTP, "same-namespace-with-http-listener-on-8080", "http-route-for-listener-on-port-8080"),
		resolvedRefs(kHTTP, "http-route-for-listener-on-port-8080", "same-namespace-with-http-listener-on-8080"),
		gwRoutesAccepted(kHTTP, "same-namespace-with-https-listener", "http-route-for-listener-on-port-443"),
		resolvedRefs(kHTTP, "http-route-for-listener-on-port-443", "same-namespace-with-https-listener")),
	// HTTPRouteCORS, tests/httproute-cors.go: two routes are Accepted-checked, all four ResolvedRefs.
	simple("HTTPRouteCORS", "httproute-cors",
		gwRoutesAccepted(kHTTP, "same-namespace", "cors-multiple-origins-methods-headers", "cors-wildcard-methods"),
		resolvedRefs(kHTTP, "cors-multiple-origins-methods-headers", "same-namespace"),
		resolvedRefs(kHTTP, "cors-wildcard-methods", "same-namespace"),
		resolvedRefs(kHTTP, "cors-wildcard-origin", "same-namespace"),
		resolvedRefs(kHTTP, "cors-wildcard-methods-headers", "same-namespace")),

	// Feature tests whose status part is GatewayAndHTTPRoutesMustBeAccepted(same-namespace)
	// (+ ResolvedRefs=True where the test asserts it); file = tests/<file>.go.
	httpBasic("HTTPRoute303Redirect", "httproute-303-redirect", true, "303-redirect"),
	httpBasic("HTTPRoute307Redirect", "httproute-307-redirect", true, "307-redirect"),
	httpBasic("HTTPRoute308Redirect", "httproute-308-redirect", true, "308-redirect"),
	httpBasic("HTTPRouteBackendProtocolH2C", "httproute-backend-protocol-h2c", false, "backend-protocol-h2c"),
	httpBasic("HTTPRouteBackendProtocolWebSocket", "httproute-backend-protocol-websocket", false, "backend-protocol-ws"),
	httpBasic("HTTPRouteExactPathMatching", "httproute-exact-path-matching", true, "exact-matching"),
	httpBasic("HTTPRouteHeaderMatching", "httproute-header-matching", true, "header-matching"),
	httpBasic("HTTPRouteMatching", "httproute-matching", true, "matching"),
	httpBasic("HTTPRouteMatchingAcrossRoutes", "httproute-matching-across-routes", true, "matching-part1", "matching-part2"),
	httpBasic("HTTPRouteMethodMatching", "httproute-method-matching", true, "method-matching"),
	httpBasic("HTTPRouteNamedRule", "httproute-named-rule", true, "http-named-rules"),
	httpBasic("HTTPRouteNoBackendRefs", "httproute-omitted-backendrefs", true, "omitted-backendrefs"),
	httpBasic("HTTPRoutePathMatchOrder", "httproute-path-match-order", true, "path-matching-order"),
	httpBasic("HTTPRouteQueryParamMatching", "httproute-query-param-matching", true, "query-param-matching"),
	httpBasic("HTTPRouteRedirectHostAndStatus", "httproute-redirect-host-and-status", true, "redirect-host-and-status"),
	httpBasic("HTTPRouteRedirectPath", "httproute-redirect-path", true, "redirect-path"),
	httpBasic("HTTPRouteRedirectPort", "httproute-redirect-port", true, "redirect-port"),
	httpBasic("HTTPRouteRedirectScheme", "httproute-redirect-scheme", true, "redirect-scheme"),
	httpBasic("HTTPRouteRequestHeaderModifier", "httproute-request-header-modifier", true, "request-header-modifier"),
	withSource(httpBasic("HTTPRouteBackendRequestHeaderModifier", "httproute-request-header-modifier-backend", true, "request-header-modifier"),
		"tests/httproute-request-header-modifier.go"),
	httpBasic("HTTPRouteRequestHeaderModifierBackendWeights", "httproute-request-header-modifier-backend-weights", true,
		"request-header-modifier-backend-weights"),
	httpBasic("HTTPRouteRequestMirror", "httproute-request-mirror", false, "request-mirror"),
	httpBasic("HTTPRouteRequestMultipleMirrors", "httproute-request-multiple-mirrors", false, "request-multiple-mirrors"),
	httpBasic("HTTPRouteRequestPercentageMirror", "httproute-request-percentage-mirror", true, "request-percentage-mirror"),
	httpBasic("HTTPRouteResponseHeaderModifier", "httproute-response-header-modifier", true, "response-header-modifier"),
	httpBasic("HTTPRouteRetry", "httproute-retry", true, "retries"),
	httpBasic("HTTPRouteRewriteHost", "httproute-rewrite-host", true, "rewrite-host"),
	httpBasic("HTTPRouteRewritePath", "httproute-rewrite-path", true, "rewrite-path"),
	httpBasic("HTTPRouteServiceTypes", "httproute-service-types", true, "service-types"),
	httpBasic("HTTPRouteSimpleSameNamespace", "httproute-simple-same-namespace", true, "gateway-conformance-infra-test"),
	httpBasic("HTTPRouteTimeoutBackendRequest", "httproute-timeout-backend-request", true, "backend-request-timeout"),
	httpBasic("HTTPRouteTimeoutRequest", "httproute-timeout-request", true, "request-timeout"),
	httpBasic("HTTPRouteWeight", "httproute-weight", true, "weighted-backends"),

	// ---- GRPCRoute: HTTP listeners without kinds carry GRPCRoute ----------
	grpcBasic("GRPCExactMethodMatching", "grpcroute-exact-method-matching", "exact-matching"),
	grpcBasic("GRPCRouteHeaderMatching", "grpcroute-header-matching", "grpc-header-matching"),
	grpcBasic("GRPCRouteNamedRule", "grpcroute-named-rule", "grpc-named-rules"),
	grpcBasic("GRPCRouteWeight", "grpcroute-weight", "weighted-backends"),
	// GRPCRouteListenerHostnameMatching, tests/grpcroute-listener-hostname-matching.go.
	simple("GRPCRouteListenerHostnameMatching", "grpcroute-listener-hostname-matching",
		nsReady(infraNS),
		gwRoutesAccepted(kGRPC, "grpcroute-listener-hostname-matching", "backend-v1", "backend-v2", "backend-v3")),

	// ---- BackendTLSPolicy tests: the route half
	btlsRoutes("BackendTLSPolicy/routes-same-namespace", "backendtlspolicy", "same-namespace", "backendtlspolicy", true),
	btlsRoutes("BackendTLSPolicy/routes-reencrypt", "backendtlspolicy", "same-namespace-with-https-listener", "backendtlspolicy-reencrypt", true),
	btlsRoutes("BackendTLSPolicyConflictResolution/routes", "backendtlspolicy-conflict-resolution", "same-namespace",
		"backendtlspolicy-conflict-resolution", true),
	btlsRoutes("BackendTLSPolicyInvalidCACertificateRef/routes", "backendtlspolicy-invalid-ca-certificate-ref", "same-namespace",
		"backendtlspolicy-invalid-ca-certificate-ref", false),
	btlsRoutes("BackendTLSPolicyInvalidKind/routes", "backendtlspolicy-invalid-kind", "same-namespace", "backendtlspolicy-invalid-kind-test", false),
	btlsRoutes("BackendTLSPolicySANValidation/routes", "backendtlspolicy-san", "same-namespace", "backendtlspolicy-san-test", true),

	// ---- BackendTLSPolicy tests: the policy half (BackendTLSPolicyMustHaveCondition)
	simple("BackendTLSPolicy/policy-status", "backendtlspolicy",
		btlsCond("normative-test", "same-namespace-with-https-listener", policyAccepted, policyResolved),
		btlsCond("normative-test", "same-namespace", policyAccepted, policyResolved),
		btlsCond("host-mismatch", "same-namespace", policyAccepted, policyResolved),
		btlsCond("cert-mismatch", "same-namespace", policyAccepted, policyResolved),
		btlsCond("reconcile-test", "same-namespace", policyAccepted, policyResolved)),
	func() confCase {
		c := simple("BackendTLSPolicy/reconcile-configmap-missing", "backendtlspolicy",
			btlsCond("reconcile-test", "same-namespace", False(cAccepted, "NoValidCACertificate"), False(cResolvedRefs, "InvalidCACertificateRef")))
		c.replace = []string{testdataDir + "/mutated/backendtlspolicy-reconcile-test.yaml"}
		return c
	}(),
	func() confCase {
		c := simple("BackendTLSPolicy/reconcile-configmap-created", "backendtlspolicy",
			btlsCond("reconcile-test", "same-namespace", policyAccepted, policyResolved))
		c.extra = []string{testdataDir + "/backendtlspolicy-reconcile-configmap.yaml"}
		c.replace = []string{testdataDir + "/mutated/backendtlspolicy-reconcile-test.yaml"}
		return c
	}(),
	func() confCase {
		c := simple("BackendTLSPolicy/reconcile-configmap-emptied", "backendtlspolicy",
			btlsCond("reconcile-test", "same-namespace", False(cAccepted, "NoValidCACertificate"), False(cResolvedRefs, "InvalidCACertificateRef")))
		c.extra = []string{testdataDir + "/backendtlspolicy-reconcile-configmap.yaml"}
		c.replace = []string{testdataDir + "/mutated/backendtlspolicy-reconcile-test.yaml",
			testdataDir + "/mutated/backendtlspolicy-reconcile-configmap-emptied.yaml"}
		return c
	}(),
	simple("BackendTLSPolicyConflictResolution/policy-status", "backendtlspolicy-conflict-resolution",
		btlsCond("conflicted-without-section-name-1", "same-namespace", policyAccepted),
		btlsCond("conflicted-without-section-name-2", "same-namespace", False(cAccepted, "Conflicted")),
		btlsCond("conflicted-with-section-name-1", "same-namespace", policyAccepted),
		btlsCond("conflicted-with-section-name-2", "same-namespace", False(cAccepted, "Conflicted")),
		btlsCond("not-conflicted-with-section-name", "same-namespace", policyAccepted),
		btlsCond("not-conflicted-without-section-name", "same-namespace", policyAccepted)),
	simple("BackendTLSPolicyInvalidCACertificateRef/policy-status", "backendtlspolicy-invalid-ca-certificate-ref",
		btlsCond("nonexistent-ca-certificate-ref", "same-namespace", False(cAccepted, "NoValidCACertificate"), False(cResolvedRefs, "InvalidCACertificateRef")),
		btlsCond("malformed-ca-certificate-ref", "same-namespace", False(cAccepted, "NoValidCACertificate"), False(cResolvedRefs, "InvalidCACertificateRef"))),
	simple("BackendTLSPolicyInvalidKind/policy-status", "backendtlspolicy-invalid-kind",
		btlsCond("invalid-kind", "same-namespace", False(cAccepted, "NoValidCACertificate"), False(cResolvedRefs, "InvalidKind"))),
	simple("BackendTLSPolicySANValidation/policy-status", "backendtlspolicy-san",
		btlsCond("san-dns", "same-namespace", policyAccepted),
		btlsCond("san-dns-mismatch", "same-namespace", policyAccepted),
		btlsCond("san-uri", "same-namespace", policyAccepted),
		btlsCond("san-uri-mismatch", "same-namespace", policyAccepted),
		btlsCond("multiple-sans", "same-namespace", policyAccepted),
		btlsCond("multiple-mismatch-sans", "same-namespace", policyAccepted)),
	// BackendTLSPolicyObservedGenerationBump, tests/backendtlspolicy-observed-generation-bump.go.
	simple("BackendTLSPolicyObservedGenerationBump/before-patch", "backendtlspolicy-observed-generation-bump",
		nsReady(infraNS), btlsLatest("observed-generation-bump")),
	func() confCase {
		c := simple("BackendTLSPolicyObservedGenerationBump/after-patch", "backendtlspolicy-observed-generation-bump",
			btlsCond("observed-generation-bump", "same-namespace", True(cAccepted, "")), btlsLatest("observed-generation-bump"))
		c.replace = []string{testdataDir + "/mutated/backendtlspolicy-observed-generation-bump.yaml"}
		return c
	}(),

	// ---- TCPRoute ----------------------------------------------------------
	simple("TCPRouteInvalidBackendRefNonexistent", "tcproute-invalid-backendref-nonexistent",
		nsReady(infraNS),
		routeCond(kTCP, "tcp-route-invalid-backend-ref-nonexistent", "tcp-gateway-invalid-backend", False(cResolvedRefs, "BackendNotFound"))),
	simple("TCPRouteInvalidCrossNamespaceBackendRef", "tcproute-invalid-cross-namespace-backend-ref",
		nsReady(infraNS, webNS),
		gwRoutesAccepted(kTCP, "tcp-invalid-cross-namespace-backend-ref-gateway", "tcp-invalid-cross-namespace-backend-ref"),
		routeCond(kTCP, "tcp-invalid-cross-namespace-backend-ref", "tcp-invalid-cross-namespace-backend-ref-gateway",
			False(cResolvedRefs, "RefNotPermitted"))),
	simple("TCPRouteInvalidNonTCPListener", "tcproute-invalid-non-tcp-listener",
		nsReady(infraNS),
		routeCond(kTCP, "tcp-route", "tcp-mixed-protocol-gateway", False(cAccepted, "NotAllowedByListeners")),
		zeroRoutes("tcp-mixed-protocol-gateway")),
	multipleRoutesAttachment(kTCP, "tcp"),
	simple("TCPRouteParentRefAttachAll", "tcproute-parentref-attach-all",
		nsReady(infraNS), gwLatest("tcp-attach-all-gateway"),
		routeParents(kTCP, "tcp-route-attach-all", false, gwParent("tcp-attach-all-gateway", True(cAccepted, "Accepted")))),
	simple("TCPRouteParentRefPortAndSectionName", "tcproute-parentref-port-and-section-name",
		nsReady(infraNS), gwLatest("tcp-multi-listener-gateway"),
		routeParents(kTCP, "tcp-route-by-port", false, gwParent("tcp-multi-listener-gateway", True(cAccepted, "Accepted"))),
		routeParents(kTCP, "tcp-route-by-section", false, gwParent("tcp-multi-listener-gateway", True(cAccepted, "Accepted"))),
		routeParents(kTCP, "tcp-route-by-section-and-port", false, gwParent("tcp-multi-listener-gateway", True(cAccepted, "Accepted")))),
	simple("TCPRouteReferenceGrant/with-grant", "tcproute-reference-grant",
		nsReady(infraNS, webNS),
		gwRoutesAccepted(kTCP, "tcp-reference-grant-gateway", "tcp-reference-grant")),
	func() confCase {
		c := simple("TCPRouteReferenceGrant/grant-deleted", "tcproute-reference-grant",
			routeCond(kTCP, "tcp-reference-grant", "tcp-reference-grant-gateway", False(cResolvedRefs, "RefNotPermitted")))
		c.remove = []string{"ReferenceGrant " + webNS + "/tcp-reference-grant"}
		return c
	}(),
	simple("TCPRouteWeightedRouting", "tcproute-weighted-routing",
		nsReady(infraNS),
		gwRoutesAccepted(kTCP, "tcp-weighted-gateway", "tcp-weighted-route")),

	// ---- UDPRoute ----------------------------------------------------------
	withSource(simple("UDPRoute", "udproute-simple",
		gwRoutesAccepted(kUDP, "udp-gateway", "udp-coredns")), "tests/udproute-simple.go"),
	simple("UDPRouteInvalidBackendRefNonexistent", "udproute-invalid-backendref-nonexistent",
		nsReady(infraNS),
		routeCond(kUDP, "udp-route-invalid-backend-ref-nonexistent", "udp-gateway-invalid-backend", False(cResolvedRefs, "BackendNotFound"))),
	simple("UDPRouteInvalidCrossNamespaceBackendRef", "udproute-invalid-cross-namespace-backend-ref",
		nsReady(infraNS),
		gwRoutesAccepted(kUDP, "udp-gateway-invalid-cross-namespace-backend-ref", "udp-route-invalid-cross-namespace-backend-ref"),
		routeCond(kUDP, "udp-route-invalid-cross-namespace-backend-ref", "udp-gateway-invalid-cross-namespace-backend-ref",
			False(cResolvedRefs, "RefNotPermitted"))),
	multipleRoutesAttachment(kUDP, "udp"),
	simple("UDPRouteNotAllowedByListeners", "udproute-not-allowed-by-listeners",
		nsReady(infraNS),
		routeCond(kUDP, "udproute-not-allowed-by-listeners", "udproute-tls-only-gateway", False(cAccepted, "NotAllowedByListeners")),
		zeroRoutes("udproute-tls-only-gateway")),
	simple("UDPRouteParentRefAttachAllListeners", "udproute-parentref-attach-all-listeners",
		nsReady(infraNS),
		routeParents(kUDP, "udp-route-attach-all", false, gwParent("udp-attach-all-listeners-gateway", True(cAccepted, "Accepted"))),
		gwListeners("udp-attach-all-listeners-gateway",
			lis{"udp-1", 1, kinds(kUDP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}},
			lis{"udp-2", 1, kinds(kUDP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}},
			lis{"udp-3", 1, kinds(kUDP), []cond{True(cAccepted, ""), True(cResolvedRefs, "")}}),
		gwLatest("udp-attach-all-listeners-gateway")),
	simple("UDPRouteParentRefPortAndSectionName", "udproute-parentref-port-and-section-name",
		nsReady(infraNS), gwLatest("udp-multi-listener-gateway"),
		routeParents(kUDP, "udp-route-by-port", false, gwParent("udp-multi-listener-gateway", True(cAccepted, "Accepted"))),
		routeParents(kUDP, "udp-route-by-section", false, gwParent("udp-multi-listener-gateway", True(cAccepted, "Accepted"))),
		routeParents(kUDP, "udp-route-by-section-and-port", false, gwParent("udp-multi-listener-gateway", True(cAccepted, "Accepted")))),
	simple("UDPRouteReferenceGrant/with-grant", "udproute-reference-grant",
		nsReady(infraNS),
		gwRoutesAccepted(kUDP, "udp-gateway-reference-grant", "udp-route-reference-grant"),
		routeCond(kUDP, "udp-route-reference-grant", "udp-gateway-reference-grant", True(cResolvedRefs, "ResolvedRefs"))),
	func() confCase {
		c := simple("UDPRouteReferenceGrant/grant-deleted", "udproute-reference-grant",
			routeCond(kUDP, "udp-route-reference-grant", "udp-gateway-reference-grant", False(cResolvedRefs, "RefNotPermitted")))
		c.remove = []string{"ReferenceGrant " + appNS + "/udp-reference-grant"}
		return c
	}(),
	simple("UDPRouteWeightedRouting", "udproute-weighted-routing",
		nsReady(infraNS),
		gwRoutesAccepted(kUDP, "udp-weighted-gateway", "udp-weighted-route")),

	// ---- TLSRoute ----------------------------------------------------------
	// The *NotSupported tests run against an implementation without the
	// feature: --without-features.
	withSource(confCase{name: "TLSRouteListenerTerminateNotSupported",
		manifests: []string{"tests/tlsroute-listener-terminate-not-supported.yaml"},
		without:   []features.FeatureName{features.SupportTLSRouteModeTerminate},
		checks: []check{gwListeners("gateway-tlsroute-terminate-unsupported",
			lis{"tls-terminate", 0, nil, []cond{False(cAccepted, "UnsupportedValue")}})},
	}, "tests/tlsroute-listener-terminate-not-supported.go"),
	withSource(confCase{name: "TLSRouteListenerMixedTerminationNotSupported",
		manifests: []string{"tests/tlsroute-listener-mixed-termination-not-supported.yaml"},
		without:   []features.FeatureName{features.SupportTLSRouteModeMixed},
		checks: []check{gwListeners("gateway-tlsroute-mixed-termination-not-supported",
			lis{"tls-terminate", 0, nil, []cond{False(cAccepted, "ProtocolConflict")}},
			lis{"tls-passthrough", 0, nil, []cond{False(cAccepted, "ProtocolConflict")}})},
	}, "tests/tlsroute-listener-mixed-termination-not-supported.go"),
	simple("TLSRouteSimpleSameNamespace", "tlsroute-simple-same-namespace",
		nsReady(infraNS), tlsRoutesAccepted("gateway-tlsroute", "gateway-conformance-infra-test")),
	simple("TLSRouteTerminateSimpleSameNamespace", "tlsroute-terminate-simple-same-namespace",
		nsReady(infraNS), tlsRoutesAccepted("gateway-tlsroute-terminate", "tlsroute-terminated-test")),
	simple("TLSRouteMixedTerminationSameNamespace", "tlsroute-mixed-termination-same-namespace",
		nsReady(infraNS),
		tlsRoutesAccepted("gateway-tlsroute-mixed-termination", "gateway-conformance-mixed-passthroughroute"),
		gwListeners("gateway-tlsroute-mixed-termination",
			lis{"tls-terminate", 1, kinds(kTLS), []cond{True(cAccepted, "Accepted")}},
			lis{"tls-passthrough", 1, kinds(kTLS), []cond{True(cAccepted, "Accepted")}}),
		tlsRoutesAccepted("gateway-tlsroute-mixed-termination", "gateway-conformance-mixed-terminateroute")),
	tlsIntersection("x-1", "gw-tlsroute-exact-hostname-x-1", "tlsroute-more-specific-wc-hostname-x-1"),
	tlsIntersection("x-2", "gw-tlsroute-more-specific-wc-hostname-x-2", "tlsroute-exact-hostname-x-2", "tlsroute-less-specific-wc-hostname-x-2"),
	tlsIntersection("x-3", "gw-tlsroute-less-specific-wc-hostname-x-3", "tlsroute-exact-hostname-x-3", "tlsroute-more-specific-wc-hostname-x-3"),
	tlsIntersection("x-4", "gw-tlsroute-empty-hostname-x-4", "tlsroute-exact-hostname-x-4", "tlsroute-less-specific-wc-hostname-x-4"),
	simple("TLSRouteInvalidNoMatchingListenerHostname", "tlsroute-invalid-no-matching-listener-hostname",
		nsReady(infraNS),
		routeCond(kTLS, "tlsroute-hostname-mismatch-1", "gateway-tls-exact-hostname", False(cAccepted, "NoMatchingListenerHostname")),
		routeCond(kTLS, "tlsroute-hostname-mismatch-2", "gateway-tls-wildcard-hostname", False(cAccepted, "NoMatchingListenerHostname")),
		noAccepted(kTLS, "tlsroute-hostname-mismatch-1"),
		noAccepted(kTLS, "tlsroute-hostname-mismatch-2"),
		zeroRoutes("gateway-tls-exact-hostname"),
		zeroRoutes("gateway-tls-wildcard-hostname")),
	simple("TLSRouteInvalidNoMatchingListener", "tlsroute-invalid-no-matching-listener",
		nsReady(infraNS),
		routeCond(kTLS, "tlsroute-not-allowed-protocol-http", "gateway-tlsroute-http-only", False(cAccepted, "NotAllowedByListeners")),
		routeCond(kTLS, "tlsroute-not-allowed-protocol-https", "gateway-tlsroute-https-only", False(cAccepted, "NotAllowedByListeners")),
		routeCond(kTLS, "tlsroute-no-matching-section-name", "gateway-tlsroute-tls-passthrough-only", False(cAccepted, "NoMatchingParent")),
		noAccepted(kTLS, "tlsroute-not-allowed-protocol-http"),
		noAccepted(kTLS, "tlsroute-not-allowed-protocol-https"),
		noAccepted(kTLS, "tlsroute-no-matching-section-name"),
		zeroRoutes("gateway-tlsroute-http-only"),
		zeroRoutes("gateway-tlsroute-https-only")),
	simple("TLSRouteInvalidBackendRefNonexistent", "tlsroute-invalid-backendref-nonexistent",
		nsReady(infraNS),
		tlsRoutesAccepted("gateway-tlsroute-invalid-backend-ref-nonexistent", "invalid-backend-ref-nonexistent"),
		routeCond(kTLS, "invalid-backend-ref-nonexistent", "gateway-tlsroute-invalid-backend-ref-nonexistent", False(cResolvedRefs, "BackendNotFound"))),
	simple("TLSRouteInvalidBackendRefUnknownKind", "tlsroute-invalid-backendref-unknown-kind",
		nsReady(infraNS),
		tlsRoutesAccepted("gateway-tlsroute-invalid-backend-ref-unknown-kind", "invalid-backend-ref-unknown-kind"),
		routeCond(kTLS, "invalid-backend-ref-unknown-kind", "gateway-tlsroute-invalid-backend-ref-unknown-kind", False(cResolvedRefs, "InvalidKind"))),
	simple("TLSRouteInvalidReferenceGrant", "tlsroute-invalid-reference-grant",
		tlsRoutesAccepted("gateway-tlsroute-referencegrant", "gateway-conformance-infra-test"),
		routeCond(kTLS, "gateway-conformance-infra-test", "gateway-tlsroute-referencegrant", False(cResolvedRefs, "RefNotPermitted"))),
	simple("TLSRouteListenerPassthroughSupportedKinds", "tlsroute-listener-passthrough-supported-kinds",
		gwListeners("gateway-tlsroute-passthrough-supported-kind",
			lis{"tls-passthrough", 0, kinds(kTLS), []cond{False(cResolvedRefs, "InvalidRouteKinds")}})),
	simple("TLSRouteListenerTerminateSupportedKinds", "tlsroute-listener-terminate-supported-kinds",
		gwListeners("gateway-tlsroute-terminate-supported",
			lis{"tls-terminate", 0, kinds(kTLS), []cond{True(cAccepted, "Accepted")}})),

	// ---- ListenerSet -------------------------------------------------------
	simple("ListenerSetDefaultNotAllowed", "listenerset-default-not-allowed",
		nsReady(infraNS),
		gwCond("gateway-default-does-not-allow-listenerset", True(cAccepted, "")),
		attachedLS("gateway-default-does-not-allow-listenerset", 0),
		lsCond("listenerset-default-not-allowed", False(cAccepted, "NotAllowed"), False(cProgrammed, "NotAllowed"))),
	simple("ListenerSetAllowedNamespaceNone", "listenerset-allowed-namespace-none",
		nsReady(infraNS),
		gwCond("gateway-does-not-allow-listenerset", True(cAccepted, "")),
		attachedLS("gateway-does-not-allow-listenerset", 0),
		lsCond("listenerset-not-allowed", False(cAccepted, "NotAllowed"), False(cProgrammed, "NotAllowed"))),
	simple("ListenerSetAllowedNamespaceSame", "listenerset-allowed-namespace-same",
		nsReady(infraNS),
		gwCond("gateway-allows-listenerset-in-same-namespace", True(cAccepted, "")),
		attachedLS("gateway-allows-listenerset-in-same-namespace", 1),
		lsCond("listenerset-in-same-namespace", True(cAccepted, "Accepted"), True(cProgrammed, "Programmed")),
		lsListenerConds("listenerset-in-same-namespace", names("listenerset-in-same-namespace-listener"), acceptedLC()...),
		lsCond("gateway-api-listenerset-not-allowed-ns/listenerset-in-different-namespace",
			False(cAccepted, "NotAllowed"), False(cProgrammed, "NotAllowed"))),
	simple("ListenerSetAllowedNamespaceSelector", "listenerset-allowed-namespace-selector",
		nsReady(infraNS),
		gwCond("gateway-allows-listenerset-in-selected-namespace", True(cAccepted, "")),
		attachedLS("gateway-allows-listenerset-in-selected-namespace", 1),
		lsCond("gateway-api-listenerset-selector-allowed-ns/listenerset-in-selected-namespace",
			True(cAccepted, "Accepted"), True(cProgrammed, "Programmed")),
		lsListenerConds("gateway-api-listenerset-selector-allowed-ns/listenerset-in-selected-namespace",
			names("listenerset-in-selected-namespace-listener"), acceptedLC()...),
		lsCond("gateway-api-listenerset-selector-not-allowed-ns/listenerset-not-in-selected-namespace",
			False(cAccepted, "NotAllowed"), False(cProgrammed, "NotAllowed"))),
	simple("ListenerSetAllowedRoutesNamespaces/listenerset-in-gateway-namespace", "listenerset-allowed-routes-namespaces",
		nsReady(infraNS),
		gwLatest("gateway-with-listener-sets-test-allowed-routes"),
		gwCond("gateway-with-listener-sets-test-allowed-routes", True(cAccepted, "")),
		attachedLS("gateway-with-listener-sets-test-allowed-routes", 2),
		lsRoutesAccepted("listenerset-test-allowed-routes-namespaces",
			"route-in-same-namespace", "gateway-api-routes-allowed-ns/route-in-selected-namespace",
			"gateway-api-routes-not-allowed-ns/route-not-in-selected-namespace"),
		lsListeners("listenerset-test-allowed-routes-namespaces",
			lis{"listener-set-listener-allowed-routes-all", 3, kinds(kHTTP), acceptedLC()},
			lis{"listener-set-listener-allowed-routes-same", 1, kinds(kHTTP), acceptedLC()},
			lis{"listener-set-listener-allowed-routes-selector", 1, kinds(kHTTP), acceptedLC()})),
	simple("ListenerSetAllowedRoutesNamespaces/listenerset-in-other-namespace", "listenerset-allowed-routes-namespaces",
		lsRoutesAccepted("gateway-api-ls-cross-ns/listenerset-test-allowed-routes-cross-ns",
			"gateway-api-ls-cross-ns/route-in-listenerset-namespace"),
		routeCond(kHTTP, "route-in-gateway-namespace", "gateway-api-ls-cross-ns/listenerset-test-allowed-routes-cross-ns",
			False(cAccepted, "NotAllowedByListeners")),
		lsListeners("gateway-api-ls-cross-ns/listenerset-test-allowed-routes-cross-ns",
			lis{"listener-set-listener-allowed-routes-cross-ns-same", 1, kinds(kHTTP), acceptedLC()})),
	simple("ListenerSetAllowedRoutesSupportedKinds", "listenerset-allowed-routes-supported-kinds",
		nsReady(infraNS),
		gwCond("gateway-with-listener-sets-test-supported-route-kinds", True(cAccepted, "")),
		lsListenerConds("listenerset-test-allowed-routes-supported-kinds",
			names("listener-set-listener-allowed-routes-tls-only"), False(cResolvedRefs, "InvalidRouteKinds"))),
	simple("ListenerSetHTTPRouting", "listenerset-http-routing",
		nsReady(infraNS),
		gwRoutesAccepted(kHTTP, "gateway-with-listener-sets-http-routing", "attaches-to-all-listeners", "gateway-route", "gateway-section-route"),
		attachedLS("gateway-with-listener-sets-http-routing", 2),
		lsRoutesAccepted("listener-set-http-routing-1",
			"attaches-to-all-listeners", "listener-set-http-routing-1-route", "listener-set-http-routing-1-section-route"),
		lsListeners("listener-set-http-routing-1",
			lis{"listener-set-http-routing-1-listener-1", 3, kinds(kHTTP), acceptedLC()},
			lis{"listener-set-http-routing-1-listener-2", 2, kinds(kHTTP), acceptedLC()}),
		lsRoutesAccepted("listener-set-http-routing-2", "attaches-to-all-listeners", "listener-set-http-routing-2-route"),
		lsListeners("listener-set-http-routing-2",
			lis{"listener-set-http-routing-2-listener-1", 2, kinds(kHTTP), acceptedLC()},
			lis{"listener-set-http-routing-2-listener-2", 2, kinds(kHTTP), acceptedLC()})),
	simple("ListenerSetDualParentRefIndependence/both-parents-accepted", "listenerset-dual-parentref-independence",
		nsReady(infraNS),
		gwLatest("gateway-dual-parentref"),
		gwCond("gateway-dual-parentref", True(cAccepted, "")),
		attachedLS("gateway-dual-parentref", 1),
		lsListeners("ls-dual-parentref", lis{"ls-dual-parentref-listener", 2, kinds(kHTTP), acceptedLC()}),
		routeCond(kHTTP, "route-dual-parentref-both", "gateway-dual-parentref", True(cAccepted, "")),
		routeCond(kHTTP, "route-dual-parentref-both", "ls-dual-parentref", True(cAccepted, ""))),
	simple("ListenerSetDualParentRefIndependence/gateway-parent-rejected", "listenerset-dual-parentref-independence",
		routeCond(kHTTP, "route-dual-parentref-one", "gateway-dual-parentref", False(cAccepted, "NoMatchingParent")),
		routeCond(kHTTP, "route-dual-parentref-one", "ls-dual-parentref", True(cAccepted, "")),
		lsRoutesAccepted("ls-dual-parentref", "route-dual-parentref-one")),
	simple("ListenerSetGatewayParentSectionNameNotFound", "listenerset-gateway-parent-section-name-not-found",
		nsReady(infraNS),
		gwLatest("gateway-section-name"),
		gwCond("gateway-section-name", True(cAccepted, "")),
		attachedLS("gateway-section-name", 1),
		lsRoutesAccepted("listenerset-section-name", "route-via-listenerset"),
		routeCond(kHTTP, "route-via-gateway", "gateway-section-name", False(cAccepted, "NoMatchingParent"))),
	listenerSetConflict("Hostname", "hostname"),
	listenerSetConflict("Protocol", "protocol"),
	simple("ListenerSetReferenceGrant", "listenerset-reference-grant",
		nsReady(infraNS),
		gwCond("gateway-with-listener-sets-test-reference-grant", True(cAccepted, "")),
		lsCond("listenerset-with-reference-grant", True(cAccepted, ""), True(cProgrammed, "")),
		lsListenerConds("listenerset-with-reference-grant", names("listenerset-with-reference-grant-listener"), True(cResolvedRefs, "")),
		lsCond("gateway-api-listener-sets-test-reference-grant-ns/listenerset-without-reference-grant",
			False(cAccepted, "ListenersNotValid"), False(cProgrammed, "ListenersNotValid")),
		lsListenerConds("gateway-api-listener-sets-test-reference-grant-ns/listenerset-without-reference-grant",
			names("listenerset-without-reference-grant-listener"), False(cResolvedRefs, "RefNotPermitted"))),
	simple("ListenerSetRouteStatusScopedToParentRef", "listenerset-route-status-scoped-to-parentref",
		nsReady(infraNS),
		gwCond("gateway-parentref", True(cAccepted, "")),
		attachedLS("gateway-parentref", 1),
		lsListeners("listenerset-parentref", lis{"listenerset-parentref-listener", 1, kinds(kHTTP), acceptedLC()}),
		routeCond(kHTTP, "route-parentref-gwonly", "gateway-parentref", True(cAccepted, "")),
		routeParents(kHTTP, "route-parentref-gwonly", true, gwParent("gateway-parentref", True(cAccepted, ""))),
		lsRoutesAccepted("listenerset-parentref", "route-parentref-lsonly"),
		routeParents(kHTTP, "route-parentref-lsonly", true, lsParent("listenerset-parentref", True(cAccepted, "")))),

	// ---- Suite-level -------------------------------------------------------

	// Suite/BaseGatewaysReady: suite.Setup runs NamespacesMustBeReady on the
	// three base namespaces with only the base manifests applied.
	{name: "Suite/BaseGatewaysReady", source: "utils/suite/suite.go",
		checks: []check{nsReady(infraNS, appNS, webNS)}},
	parallelReadiness(),
}

// invalidTLS is one subtest of GatewayInvalidTLSConfiguration.
func invalidTLS(which string) confCase {
	return withSource(confCase{name: "GatewayInvalidTLSConfiguration/" + which,
		manifests: []string{"tests/gateway-invalid-tls-configuration.yaml"},
		checks: []check{gwListeners("gateway-certificate-"+which,
			lis{"https", 0, kinds(kHTTP), []cond{False(cResolvedRefs, "InvalidCertificateRef")}})},
	}, "tests/gateway-invalid-tls-configuration.go")
}

// invalidTLSBackend is one subtest of GatewayInvalidTLSBackendConfiguration.
func invalidTLSBackend(which, reason string) confCase {
	gw := "gateway-client-certificate-" + which
	return simple("GatewayInvalidTLSBackendConfiguration/"+which, "gateway-invalid-tls-backend-configuration",
		gwLatest(gw), gwCond(gw, False(cResolvedRefs, reason)), gwCond(gw, True(cAccepted, "Accepted")))
}

// listenerIsolation is one subtest of GatewayHTTPListenerIsolation.
func listenerIsolation(part, gw, suffix string) confCase {
	var routes []string
	for _, r := range []string{"empty-hostname", "wildcard-example-com", "wildcard-foo-example-com", "abc-foo-example-com"} {
		routes = append(routes, "attaches-to-"+r+suffix)
	}
	checks := []check{nsReady(infraNS), gwRoutesAccepted(kHTTP, gw, routes...)}
	for _, r := range routes {
		checks = append(checks, resolvedRefs(kHTTP, r, gw))
	}
	return confCase{name: "GatewayHTTPListenerIsolation/" + part, source: "tests/gateway-http-listener-isolation.go",
		manifests: []string{"tests/gateway-http-listener-isolation.yaml", "tests/gateway-http-listener-isolation-with-hostname-intersection.yaml"},
		checks:    checks}
}

// tlsIntersection is one subtest of TLSRouteHostnameIntersection.
func tlsIntersection(part, gw string, routes ...string) confCase {
	checks := []check{nsReady(infraNS), tlsRoutesAccepted(gw, routes...)}
	for _, r := range routes {
		checks = append(checks, routeCond(kTLS, r, gw, True(cResolvedRefs, "ResolvedRefs")))
	}
	return withSource(confCase{name: "TLSRouteHostnameIntersection/" + part,
		manifests: []string{"tests/tlsroute-hostname-intersection.yaml"}, checks: checks},
		"tests/tlsroute-hostname-intersection.go")
}

// listenerSetConflict is ListenerSetHostnameConflict or
// ListenerSetProtocolConflict: the same structure, four ListenerSets
// competing with the Gateway's listeners and with each other.
func listenerSetConflict(kind, word string) confCase {
	reason := kind + "Conflict"
	gw := "gateway-with-listenerset-" + word + "-conflict"
	ls := func(n string) string { return "listenerset-with-" + word + "-conflict-with-" + n }
	withGW := word + "-conflict-with-gateway-listener"
	withLS := word + "-conflict-with-listener-set-listener"
	return simple("ListenerSet"+kind+"Conflict", "listenerset-"+word+"-conflict",
		nsReady(infraNS),
		gwCond(gw, True(cAccepted, "")),
		gwListenerConds(gw, names("gateway-listener"), acceptedLC()...),
		gwListenerConds(gw, names(withGW), acceptedLC()...),
		attachedLS(gw, 2),
		lsCond(ls("gateway-1"), True(cAccepted, ""), True(cProgrammed, "Programmed")),
		lsListenerConds(ls("gateway-1"), names("listener-set-1-listener"), acceptedLC()...),
		lsListenerConds(ls("gateway-1"), names(withGW), conflictLC(reason)...),
		lsListenerConds(ls("gateway-1"), names(withLS), acceptedLC()...),
		lsCond(ls("gateway-2"), False(cAccepted, "ListenersNotValid"), False(cProgrammed, "ListenersNotValid")),
		lsListenerConds(ls("gateway-2"), names(withGW), conflictLC(reason)...),
		lsCond(ls("listener-set-1"), True(cAccepted, ""), True(cProgrammed, "Programmed")),
		lsListenerConds(ls("listener-set-1"), names("listener-set-2-listener"), acceptedLC()...),
		lsListenerConds(ls("listener-set-1"), names(withLS), conflictLC(reason)...),
		lsCond(ls("listener-set-2"), False(cAccepted, "ListenersNotValid"), False(cProgrammed, "ListenersNotValid")),
		lsListenerConds(ls("listener-set-2"), names(withLS), conflictLC(reason)...))
}

// parallelTests are the Parallel conformance tests whose features the
// resolver models (TLSRoute Terminate and Mixed supported, so the
// *NotSupported tests do not run). In parallel mode they are applied at the
// same time, so NamespacesMustBeReady(infra) in any of them sees the
// Gateways of all of them.
var parallelTests = []string{
	"tests/gateway-invalid-listeners-unsupported-protocol.yaml",
	"tests/gateway-invalid-route-kind.yaml",
	"tests/gateway-invalid-tls-configuration.yaml",
	"tests/gateway-invalid-tls-backend-configuration.yaml",
	"tests/gateway-secret-missing-reference-grant.yaml",
	"tests/gateway-secret-invalid-reference-grant.yaml",
	"tests/gateway-secret-reference-grant-all-in-namespace.yaml",
	"tests/gateway-secret-reference-grant-specific.yaml",
	"tests/gateway-tls-backend-client-certificate.yaml",
	"tests/gateway-infrastructure.yaml",
	"tests/gateway-invalid-parameters-ref.yaml",
	"tests/gateway-static-addresses.yaml",
	"tests/gateway-optional-address-value.yaml",
	"tests/gateway-observed-generation-bump.yaml",
	"tests/gatewayclass-observed-generation-bump.yaml",
	"tests/gateway-http-listener-isolation.yaml",
	"tests/gateway-http-listener-isolation-with-hostname-intersection.yaml",
	"tests/gateway-with-clientcertificate-validation.yaml",
	"tests/gateway-with-clientcertificate-validation-insecure-fallback.yaml",
	"tests/gateway-invalid-default-frontend-client-certificate-validation.yaml",
	"tests/gateway-with-invalid-clientcertificate-validation.yaml",
	"tests/listenerset-allowed-namespace-none.yaml",
	"tests/listenerset-allowed-namespace-same.yaml",
	"tests/listenerset-allowed-namespace-selector.yaml",
	"tests/listenerset-allowed-routes-namespaces.yaml",
	"tests/listenerset-allowed-routes-supported-kinds.yaml",
	"tests/listenerset-default-not-allowed.yaml",
	"tests/listenerset-hostname-conflict.yaml",
	"tests/listenerset-http-routing.yaml",
	"tests/listenerset-protocol-conflict.yaml",
	"tests/listenerset-reference-grant.yaml",
	"tests/backendtlspolicy.yaml",
	"tests/backendtlspolicy-conflict-resolution.yaml",
	"tests/backendtlspolicy-invalid-ca-certificate-ref.yaml",
	"tests/backendtlspolicy-invalid-kind.yaml",
	"tests/backendtlspolicy-observed-generation-bump.yaml",
	"tests/backendtlspolicy-san.yaml",
}

// parallelReadiness: notes §4.20. Every non-skip-annotated Gateway of the
// parallel tests must be Accepted and Programmed while they run together.
func parallelReadiness() confCase {
	return confCase{name: "Suite/ParallelNamespacesMustBeReady", source: "utils/suite/suite.go",
		manifests: parallelTests, checks: []check{nsReady(infraNS)}}
}

// --------------------------------------------------------------------------
// The harness.

func TestConformance(t *testing.T) {
	dir := conformancetest.Dir(t)
	names := map[string]bool{}
	for _, c := range conformanceCases {
		if names[c.name] {
			t.Fatalf("duplicate case %s", c.name)
		}
		names[c.name] = true
	}
	for name := range knownDivergences {
		if !names[name] {
			t.Errorf("knownDivergences names %q, which is not a case", name)
		}
	}
	var mu sync.Mutex
	passed, diverged := 0, 0
	t.Cleanup(func() { // after the parallel subtests
		t.Logf("conformance cases: %d, passing: %d, known divergences: %d, not modelled: %d",
			len(conformanceCases), passed, diverged, len(notModelled))
	})
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			failures := c.run(t, dir)
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				if _, known := knownDivergences[c.name]; known {
					diverged++
				} else if !t.Failed() {
					passed++
				}
			}()
			reason, known := knownDivergences[c.name]
			switch {
			case known && len(failures) == 0:
				t.Errorf("listed in knownDivergences (%s) but now passes: remove the entry", reason)
			case known:
				t.Logf("known divergence (%s) [%s]:", reason, c.source)
				for _, f := range failures {
					t.Logf("  %s", f)
				}
			default:
				for _, f := range failures {
					t.Errorf("%s [%s]", f, c.source)
				}
			}
		})
	}
}

// run loads the case's inputs, resolves them and returns what the suite's
// helpers would fail on.
func (c *confCase) run(t *testing.T, dir string) []string {
	t.Helper()
	paths := []string{filepath.Join(dir, "base", "manifests.yaml")}
	for _, m := range c.manifests {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(m)))
	}
	paths = append(paths, suiteObjects...)
	paths = append(paths, c.extra...)
	opts := resolve.Options{ControllerName: conformancetest.Controller, OwnedNamespaces: conformancetest.Namespaces, WithoutFeatures: c.without}
	in := resolve.Load(paths, nil, opts)
	if len(in.Errors) > 0 {
		t.Fatalf("read errors:%s", conformancetest.ReadErrors(in.Errors))
	}
	if len(c.replace) > 0 || len(c.remove) > 0 {
		in = conformancetest.Mutate(t, in, opts, c.replace, c.remove)
	}
	g := resolve.Resolve(in, opts)
	if len(g.Duplicates) > 0 {
		for _, d := range g.Duplicates {
			t.Errorf("harness: %s defined twice (%s, %s)", d.Again.Metadata().Ref,
				d.First.Metadata().Source.File, d.Again.Metadata().Source.File)
		}
	}
	v := newView(t, g, append(paths, c.replace...))
	var failures []string
	for _, ch := range c.checks {
		if err := ch.fn(v); err != nil {
			failures = append(failures, ch.what+": "+err.Error())
		}
	}
	return failures
}

// mutate applies the test's Patch (replace) and Delete (remove) calls.
// view is what the suite's client.Get would see: the status objects the
// resolver writes, and every Gateway in the inputs with its annotations.
type view struct {
	classes      map[string]*gwv1.GatewayClassStatus
	gateways     map[string]*gwv1.GatewayStatus
	listenerSets map[string]*gwv1.ListenerSetStatus
	routes       map[string]*gwv1.RouteStatus  // "Kind ns/name"
	policies     map[string]*gwv1.PolicyStatus // BackendTLSPolicies, "ns/name"
	generation   map[string]int64              // "Kind ns/name"
	allGateways  []string                      // ns/name of every Gateway in the inputs
	skipReady    map[string]bool               // Gateways annotated skip-this-for-readiness
}

func newView(t *testing.T, g *resolve.Graph, files []string) *view {
	t.Helper()
	v := &view{
		classes:      map[string]*gwv1.GatewayClassStatus{},
		gateways:     map[string]*gwv1.GatewayStatus{},
		listenerSets: map[string]*gwv1.ListenerSetStatus{},
		routes:       map[string]*gwv1.RouteStatus{},
		policies:     map[string]*gwv1.PolicyStatus{},
		generation:   map[string]int64{},
		skipReady:    gatewayAnnotations(t, files),
	}
	for _, so := range g.Statuses() {
		nn := so.Metadata.Namespace + "/" + so.Metadata.Name
		key := so.Kind + " " + nn
		if _, dup := v.generation[key]; dup {
			t.Errorf("harness: two status objects for %s", key)
		}
		v.generation[key] = so.Metadata.Generation
		switch st := so.Status.(type) {
		case gwv1.GatewayClassStatus:
			v.classes[so.Metadata.Name] = &st
		case gwv1.GatewayStatus:
			v.gateways[nn] = &st
		case gwv1.ListenerSetStatus:
			v.listenerSets[nn] = &st
		case gwv1.RouteStatus:
			v.routes[key] = &st
		case gwv1.PolicyStatus:
			v.policies[nn] = &st
		default:
			t.Fatalf("harness: status of %s has unexpected type %T", key, so.Status)
		}
	}
	for _, gw := range g.Gateways {
		ref := gw.Metadata().Ref
		v.allGateways = append(v.allGateways, ref.Namespace+"/"+ref.Name)
	}
	return v
}

// gatewayAnnotations reads which Gateways carry the skip-for-readiness
// annotation; the resolver does not keep annotations.
func gatewayAnnotations(t *testing.T, files []string) map[string]bool {
	t.Helper()
	skip := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var doc struct {
				Kind     string `yaml:"kind"`
				Metadata struct {
					Name        string            `yaml:"name"`
					Namespace   string            `yaml:"namespace"`
					Annotations map[string]string `yaml:"annotations"`
				} `yaml:"metadata"`
			}
			if err := dec.Decode(&doc); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				t.Fatalf("%s: %v", f, err)
			}
			if doc.Kind == "Gateway" && doc.Metadata.Annotations[skipReadiness] == "true" {
				skip[nsName(doc.Metadata.Namespace+"/"+doc.Metadata.Name)] = true
			}
		}
	}
	return skip
}

// nsName turns "name" into "gateway-conformance-infra/name".
func nsName(s string) string {
	if strings.Contains(s, "/") {
		if strings.HasPrefix(s, "/") {
			return infraNS + s
		}
		return s
	}
	return infraNS + "/" + s
}

// --------------------------------------------------------------------------
// Conditions: findConditionInList / conditionsMatch / freshness.

type cond struct{ typ, status, reason string }

// True and False build expected conditions; an empty reason matches any.
func True(typ, reason string) cond  { return cond{typ, "True", reason} }
func False(typ, reason string) cond { return cond{typ, "False", reason} }

func (c cond) String() string {
	r := c.reason
	if r == "" {
		r = "*"
	}
	s := c.status
	if s == "" {
		s = "*"
	}
	return c.typ + "=" + s + "/" + r
}

// acceptedLC is the listener trio the ListenerSet tests and
// RoutesAndParentMustBeAccepted require: ResolvedRefs, Accepted and
// Programmed all True, any reason.
func acceptedLC() []cond {
	return []cond{True(cResolvedRefs, ""), True(cAccepted, ""), True(cProgrammed, "")}
}

// invalidCA is a listener whose frontend CA certificate refs all fail with
// ResolvedRefs reason r.
func invalidCA(r string) []cond {
	return []cond{False(cResolvedRefs, r), False(cAccepted, "NoValidCACertificate"), False(cProgrammed, "")}
}

// conflictLC is a ListenerSet listener losing a conflict with reason r.
func conflictLC(r string) []cond {
	return []cond{False(cAccepted, r), False(cProgrammed, r), True(cConflicted, r)}
}

func findCondition(conds []metav1.Condition, c cond) bool {
	for _, a := range conds {
		if a.Type == c.typ && (c.status == "" || string(a.Status) == c.status) && (c.reason == "" || a.Reason == c.reason) {
			return true
		}
	}
	return false
}

func conditionsMatch(expected []cond, actual []metav1.Condition) error {
	if len(actual) < len(expected) {
		return fmt.Errorf("want at least %d conditions, got %s", len(expected), condList(actual))
	}
	var missing []string
	for _, c := range expected {
		if !findCondition(actual, c) {
			missing = append(missing, c.String())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("want %s, got %s", strings.Join(missing, ", "), condList(actual))
	}
	return nil
}

func condList(conds []metav1.Condition) string {
	if len(conds) == 0 {
		return "no conditions"
	}
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = fmt.Sprintf("%s=%s/%s", c.Type, c.Status, c.Reason)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// fresh is ConditionsHaveLatestObservedGeneration.
func fresh(gen int64, conds []metav1.Condition) error {
	var stale []string
	for _, c := range conds {
		if c.ObservedGeneration != gen {
			stale = append(stale, fmt.Sprintf("%s (observedGeneration %d)", c.Type, c.ObservedGeneration))
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("generation %d but stale conditions %s", gen, strings.Join(stale, ", "))
	}
	return nil
}

// --------------------------------------------------------------------------
// Checks, one per suite helper.

type check struct {
	what string
	fn   func(v *view) error
}

func (v *view) gateway(nn string) (*gwv1.GatewayStatus, int64, error) {
	st, ok := v.gateways[nn]
	if !ok {
		return nil, 0, fmt.Errorf("no status for Gateway %s", nn)
	}
	return st, v.generation["Gateway "+nn], nil
}

// freshGateway: the Gateway has status and all its conditions are fresh
// (getGatewayStatus, GatewayMustHaveLatestConditions, and the first step of
// most Gateway helpers).
func (v *view) freshGateway(nn string) (*gwv1.GatewayStatus, error) {
	st, gen, err := v.gateway(nn)
	if err != nil {
		return nil, err
	}
	if len(st.Conditions) == 0 {
		return nil, errors.New("Gateway has no conditions")
	}
	return st, fresh(gen, st.Conditions)
}

func (v *view) listenerSet(nn string) (*gwv1.ListenerSetStatus, error) {
	st, ok := v.listenerSets[nn]
	if !ok {
		return nil, fmt.Errorf("no status for ListenerSet %s", nn)
	}
	if err := fresh(v.generation["ListenerSet "+nn], st.Conditions); err != nil {
		return nil, err
	}
	return st, nil
}

func (v *view) route(kind, nn string) (*gwv1.RouteStatus, int64, error) {
	key := kind + " " + nn
	st, ok := v.routes[key]
	if !ok {
		return nil, 0, fmt.Errorf("no status for %s", key)
	}
	return st, v.generation[key], nil
}

// gwLatest is GatewayMustHaveLatestConditions.
// gwcAccepted is GWCMustHaveAcceptedConditionTrue (status "True") or
// GWCMustHaveAcceptedConditionAny (status ""), which also wants every
// condition at the class's latest generation.
func gwcAccepted(name, status string) check {
	return check{"GWCMustHaveAcceptedCondition(" + name + ", " + cmp.Or(status, "any") + ")", func(v *view) error {
		st := v.classes[name]
		if st == nil {
			return fmt.Errorf("GatewayClass %s has no status", name)
		}
		if err := fresh(v.generation["GatewayClass /"+name], st.Conditions); err != nil {
			return err
		}
		for _, c := range st.Conditions {
			if c.Type == string(gwv1.GatewayClassConditionStatusAccepted) && (status == "" || string(c.Status) == status) {
				return nil
			}
		}
		return fmt.Errorf("GatewayClass %s: no Accepted condition with status %q: %s", name, status, condList(st.Conditions))
	}}
}

func gwLatest(gw string) check {
	nn := nsName(gw)
	return check{"GatewayMustHaveLatestConditions(" + nn + ")", func(v *view) error {
		_, err := v.freshGateway(nn)
		return err
	}}
}

// multipleRoutesAttachment is {TCP,UDP}RouteMultipleRoutesAttachment: an
// older route and a newer one (created mid-test, modelled by an extra file)
// on one listener are both accepted and both counted, although only the
// older one carries traffic.
func multipleRoutesAttachment(kind, prefix string) confCase {
	gw := prefix + "-multi-route-attach-gateway"
	c := simple(strings.ToUpper(prefix)+"RouteMultipleRoutesAttachment", prefix+"route-multiple-routes-attachment",
		nsReady(infraNS),
		gwRoutesAccepted(kind, gw, prefix+"route-attach-older"),
		routeCond(kind, prefix+"route-attach-older", gw, True(cAccepted, "Accepted")),
		routeCond(kind, prefix+"route-attach-newer", gw, True(cAccepted, "Accepted")),
		gwListeners(gw, lis{prefix, 2, kinds(kind), []cond{True(cAccepted, "Accepted")}}))
	c.extra = []string{testdataDir + "/" + prefix + "route-attach-newer.yaml"}
	return c
}

// hasConditions checks that every wanted condition is among the actual
// ones (the suite's helpers accept a superset).
func hasConditions(actual []metav1.Condition, want []cond) error {
	for _, c := range want {
		if !findCondition(actual, c) {
			return fmt.Errorf("want %s, got %s", c, condList(actual))
		}
	}
	return nil
}

// gwCond is GatewayMustHaveCondition, once per condition.
func gwCond(gw string, cs ...cond) check {
	nn := nsName(gw)
	return check{fmt.Sprintf("GatewayMustHaveCondition(%s, %v)", nn, cs), func(v *view) error {
		st, err := v.freshGateway(nn)
		if err != nil {
			return err
		}
		return hasConditions(st.Conditions, cs)
	}}
}

// lis is one expected ListenerStatus. kinds nil means "SupportedKinds left
// unset in the test", which demands an empty actual list.
type lis struct {
	name     string
	attached int32
	kinds    []string
	conds    []cond
}

func kinds(ks ...string) []string { return ks }

func listenersMatch(expected []lis, actual []gwv1.ListenerStatus) error {
	if len(expected) != len(actual) {
		names := make([]string, len(actual))
		for i, a := range actual {
			names[i] = string(a.Name)
		}
		return fmt.Errorf("want %d listeners, got %d %v", len(expected), len(actual), names)
	}
	for _, e := range expected {
		var a *gwv1.ListenerStatus
		for i := range actual {
			if string(actual[i].Name) == e.name {
				a = &actual[i]
			}
		}
		if a == nil {
			return fmt.Errorf("listener %s missing", e.name)
		}
		var got []string
		for _, k := range a.SupportedKinds {
			group := gwv1.GroupName
			if k.Group != nil {
				group = string(*k.Group)
			}
			got = append(got, group+"/"+string(k.Kind))
		}
		if len(e.kinds) == 0 && len(a.SupportedKinds) != 0 {
			return fmt.Errorf("listener %s: want no supportedKinds, got %v", e.name, got)
		}
		for _, k := range e.kinds {
			if !slices.Contains(got, gwv1.GroupName+"/"+k) {
				return fmt.Errorf("listener %s: want supportedKinds ⊇ %s, got %v", e.name, k, got)
			}
		}
		if a.AttachedRoutes != e.attached {
			return fmt.Errorf("listener %s: want attachedRoutes %d, got %d", e.name, e.attached, a.AttachedRoutes)
		}
		if err := conditionsMatch(e.conds, a.Conditions); err != nil {
			return fmt.Errorf("listener %s: %w", e.name, err)
		}
	}
	return nil
}

// gwListeners is GatewayStatusMustHaveListeners.
func gwListeners(gw string, ls ...lis) check {
	nn := nsName(gw)
	return check{"GatewayStatusMustHaveListeners(" + nn + ")", func(v *view) error {
		st, err := v.freshGateway(nn)
		if err != nil {
			return err
		}
		return listenersMatch(ls, st.Listeners)
	}}
}

// lsListeners is ListenerSetStatusMustHaveListeners.
func lsListeners(ls string, expected ...lis) check {
	nn := nsName(ls)
	return check{"ListenerSetStatusMustHaveListeners(" + nn + ")", func(v *view) error {
		st, err := v.listenerSet(nn)
		if err != nil {
			return err
		}
		actual := make([]gwv1.ListenerStatus, len(st.Listeners))
		for i, l := range st.Listeners {
			actual[i] = gwv1.ListenerStatus(l)
		}
		return listenersMatch(expected, actual)
	}}
}

// listenerConds: every listener (or every named one, each of which must be
// present) has all conditions.
func listenerConds(listeners []gwv1.ListenerStatus, names []string, cs []cond) error {
	found := map[string]bool{}
	for _, l := range listeners {
		if len(names) > 0 && !slices.Contains(names, string(l.Name)) {
			continue
		}
		found[string(l.Name)] = true
		if err := conditionsMatch(cs, l.Conditions); err != nil {
			return fmt.Errorf("listener %s: %w", l.Name, err)
		}
	}
	for _, n := range names {
		if !found[n] {
			return fmt.Errorf("listener %s missing", n)
		}
	}
	return nil
}

// gwListenerConds is GatewayListenersMustHaveConditions (and, with one name,
// GatewayListenerMustHaveConditions). No freshness check. No names = all.
func gwListenerConds(gw string, names []string, cs ...cond) check {
	nn := nsName(gw)
	return check{fmt.Sprintf("GatewayListenersMustHaveConditions(%s, %v, %v)", nn, names, cs), func(v *view) error {
		st, _, err := v.gateway(nn)
		if err != nil {
			return err
		}
		return listenerConds(st.Listeners, names, cs)
	}}
}

// lsListenerConds is ListenerSetListenersMustHaveConditions.
func lsListenerConds(ls string, names []string, cs ...cond) check {
	nn := nsName(ls)
	return check{fmt.Sprintf("ListenerSetListenersMustHaveConditions(%s, %v, %v)", nn, names, cs), func(v *view) error {
		st, err := v.listenerSet(nn)
		if err != nil {
			return err
		}
		actual := make([]gwv1.ListenerStatus, len(st.Listeners))
		for i, l := range st.Listeners {
			actual[i] = gwv1.ListenerStatus(l)
		}
		return listenerConds(actual, names, cs)
	}}
}

func names(ns ...string) []string { return ns }

// lsCond is ListenerSetMustHaveCondition, once per condition.
func lsCond(ls string, cs ...cond) check {
	nn := nsName(ls)
	return check{fmt.Sprintf("ListenerSetMustHaveCondition(%s, %v)", nn, cs), func(v *view) error {
		st, err := v.listenerSet(nn)
		if err != nil {
			return err
		}
		return hasConditions(st.Conditions, cs)
	}}
}

// zeroRoutes is GatewayMustHaveZeroRoutes.
func zeroRoutes(gw string) check {
	nn := nsName(gw)
	return check{"GatewayMustHaveZeroRoutes(" + nn + ")", func(v *view) error {
		st, err := v.freshGateway(nn)
		if err != nil {
			return err
		}
		switch {
		case len(st.Listeners) == 0:
			return nil
		case len(st.Listeners) == 1 && st.Listeners[0].AttachedRoutes == 0:
			return nil
		case len(st.Listeners) == 1:
			return fmt.Errorf("listener %s has attachedRoutes %d", st.Listeners[0].Name, st.Listeners[0].AttachedRoutes)
		}
		return fmt.Errorf("want no listener or one, got %d", len(st.Listeners))
	}}
}

// attachedLS is GatewayMustHaveAttachedListeners (it counts ListenerSets).
func attachedLS(gw string, n int32) check {
	nn := nsName(gw)
	return check{fmt.Sprintf("GatewayMustHaveAttachedListeners(%s, %d)", nn, n), func(v *view) error {
		st, err := v.freshGateway(nn)
		if err != nil {
			return err
		}
		got := int32(0)
		if st.AttachedListenerSets != nil {
			got = *st.AttachedListenerSets
		}
		if got != n {
			return fmt.Errorf("want attachedListenerSets %d, got %d", n, got)
		}
		return nil
	}}
}

// nsReady is NamespacesMustBeReady for the Gateway half (Pods are not
// modelled): every Gateway in the namespaces without the skip annotation is
// fresh, Accepted=True and Programmed=True.
func nsReady(nss ...string) check {
	return check{fmt.Sprintf("NamespacesMustBeReady(%v)", nss), func(v *view) error {
		var errs []string
		for _, nn := range v.allGateways {
			ns, _, _ := strings.Cut(nn, "/")
			if !slices.Contains(nss, ns) || v.skipReady[nn] {
				continue
			}
			st, err := v.freshGateway(nn)
			if err == nil {
				err = conditionsMatch([]cond{True(cAccepted, ""), True(cProgrammed, "")}, st.Conditions)
			}
			if err != nil {
				errs = append(errs, fmt.Sprintf("Gateway %s: %v", nn, err))
			}
		}
		if len(errs) > 0 {
			return errors.New(strings.Join(errs, "; "))
		}
		return nil
	}}
}

// parent is one expected RouteParentStatus (controllerName is always the
// suite's; group always gateway.networking.k8s.io).
type parent struct {
	kind, nn string
	conds    []cond
}

func gwParent(gw string, cs ...cond) parent { return parent{"Gateway", nsName(gw), cs} }
func lsParent(ls string, cs ...cond) parent { return parent{"ListenerSet", nsName(ls), cs} }

func derefStr[T ~string](p *T) string {
	if p == nil {
		return "<nil>"
	}
	return string(*p)
}

func parentString(p gwv1.RouteParentStatus) string {
	return fmt.Sprintf("{%s %s/%s %s/%s %s}", p.ControllerName, derefStr(p.ParentRef.Group), derefStr(p.ParentRef.Kind),
		derefStr(p.ParentRef.Namespace), p.ParentRef.Name, condList(p.Conditions))
}

func parentsString(ps []gwv1.RouteParentStatus) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = parentString(p)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// parentsMatch is parentsForRouteMatch.
func parentsMatch(expected []parent, actual []gwv1.RouteParentStatus, namespaceRequired bool) error {
	for _, e := range expected {
		ns, name, _ := strings.Cut(e.nn, "/")
		matched := false
		for _, a := range actual {
			pr := a.ParentRef
			if string(a.ControllerName) != conformancetest.Controller ||
				pr.Group == nil || string(*pr.Group) != gwv1.GroupName ||
				pr.Kind == nil || string(*pr.Kind) != e.kind ||
				string(pr.Name) != name {
				continue
			}
			if pr.Namespace == nil {
				if namespaceRequired {
					continue
				}
			} else if string(*pr.Namespace) != ns {
				continue
			}
			if conditionsMatch(e.conds, a.Conditions) != nil {
				continue
			}
			matched = true
		}
		if !matched {
			return fmt.Errorf("no parent matches {%s %s/%s %s %v} (namespaceRequired=%v); got %s",
				conformancetest.Controller, gwv1.GroupName, e.kind, e.nn, e.conds, namespaceRequired, parentsString(actual))
		}
	}
	return nil
}

// routeParents is RouteMustHaveParents (HTTP/GRPC/TCP/UDP: every parent's
// conditions fresh) or, for TLSRoute, TLSRouteMustHaveParents (no
// freshness check).
func routeParents(kind, route string, namespaceRequired bool, ps ...parent) check {
	nn := nsName(route)
	return check{fmt.Sprintf("%sMustHaveParents(%s, namespaceRequired=%v)", kind, nn, namespaceRequired), func(v *view) error {
		st, gen, err := v.route(kind, nn)
		if err != nil {
			return err
		}
		if kind != kTLS {
			for _, p := range st.Parents {
				if err := fresh(gen, p.Conditions); err != nil {
					return fmt.Errorf("parent %s: %w", parentString(p), err)
				}
			}
		}
		return parentsMatch(ps, st.Parents, namespaceRequired)
	}}
}

// routeCond is HTTPRouteMustHaveCondition (and its TLS/TCP/UDP twins): all
// parents fresh, and some parent named like the given parent (namespace nil
// or equal; kind, group and sectionName ignored) has the condition.
func routeCond(kind, route, parentNN string, c cond) check {
	nn, pnn := nsName(route), nsName(parentNN)
	return check{fmt.Sprintf("%sMustHaveCondition(%s, %s, %s)", kind, nn, pnn, c), func(v *view) error {
		st, gen, err := v.route(kind, nn)
		if err != nil {
			return err
		}
		pns, pname, _ := strings.Cut(pnn, "/")
		found := false
		for _, p := range st.Parents {
			if err := fresh(gen, p.Conditions); err != nil {
				return fmt.Errorf("parent %s: %w", parentString(p), err)
			}
			if string(p.ParentRef.Name) == pname && (p.ParentRef.Namespace == nil || string(*p.ParentRef.Namespace) == pns) &&
				findCondition(p.Conditions, c) {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("got parents %s", parentsString(st.Parents))
		}
		return nil
	}}
}

// routeLatest is HTTPRouteMustHaveLatestConditions: every parent's
// conditions are fresh.
func routeLatest(kind, route string) check {
	nn := nsName(route)
	return check{kind + "MustHaveLatestConditions(" + nn + ")", func(v *view) error {
		st, gen, err := v.route(kind, nn)
		if err != nil {
			return err
		}
		for _, p := range st.Parents {
			if err := fresh(gen, p.Conditions); err != nil {
				return fmt.Errorf("parent %s: %w", parentString(p), err)
			}
		}
		return nil
	}}
}

// resolvedRefs is XRouteMustHaveResolvedRefsConditionsTrue.
func resolvedRefs(kind, route, parentNN string) check {
	return routeCond(kind, route, parentNN, True(cResolvedRefs, "ResolvedRefs"))
}

// noAccepted is XRouteMustHaveNoAcceptedParents: no parents at all, or
// exactly one, fresh, with Accepted=False.
func noAccepted(kind, route string) check {
	nn := nsName(route)
	return check{kind + "MustHaveNoAcceptedParents(" + nn + ")", func(v *view) error {
		st, gen, err := v.route(kind, nn)
		if err != nil {
			return err
		}
		switch len(st.Parents) {
		case 0:
			return nil
		case 1:
			if err := fresh(gen, st.Parents[0].Conditions); err != nil {
				return err
			}
			return conditionsMatch([]cond{False(cAccepted, "")}, st.Parents[0].Conditions)
		}
		return fmt.Errorf("want at most one parent, got %s", parentsString(st.Parents))
	}}
}

// gwRoutesAccepted is GatewayAndRoutesMustBeAccepted (and its HTTP/TCP/UDP
// variants): WaitForGatewayAddress (Gateway conditions fresh; the address
// itself is in notModelled), every route has an Accepted=True/Accepted
// parent for the Gateway, and every Gateway listener is ResolvedRefs,
// Accepted and Programmed. Routes do not repeat per listener name: the
// expected parents differ only in sectionName, which is not compared.
func gwRoutesAccepted(kind, gw string, routes ...string) check {
	return parentAndRoutesAccepted(kind, "Gateway", gw, routes...)
}

// lsRoutesAccepted is RoutesAndParentMustBeAccepted for a ListenerSet parent.
func lsRoutesAccepted(ls string, routes ...string) check {
	return parentAndRoutesAccepted(kHTTP, "ListenerSet", ls, routes...)
}

func parentAndRoutesAccepted(kind, parentKind, parentNN string, routes ...string) check {
	pnn := nsName(parentNN)
	pns, _, _ := strings.Cut(pnn, "/")
	what := fmt.Sprintf("GatewayAnd%ssMustBeAccepted(%s, %v)", kind, pnn, routes)
	if parentKind == "ListenerSet" {
		what = fmt.Sprintf("RoutesAndParentMustBeAccepted(ListenerSet %s, %v)", pnn, routes)
	}
	return check{what, func(v *view) error {
		var listeners []gwv1.ListenerStatus
		if parentKind == "Gateway" {
			st, err := v.freshGateway(pnn)
			if err != nil {
				return err
			}
			listeners = st.Listeners
		}
		for _, r := range routes {
			rnn := nsName(r)
			rns, _, _ := strings.Cut(rnn, "/")
			p := parent{parentKind, pnn, []cond{True(cAccepted, "Accepted")}}
			if err := routeParents(kind, rnn, rns != pns, p).fn(v); err != nil {
				return fmt.Errorf("%s: %w", rnn, err)
			}
		}
		if parentKind == "ListenerSet" {
			return lsListenerConds(pnn, nil, acceptedLC()...).fn(v)
		}
		return listenerConds(listeners, nil, acceptedLC())
	}}
}

// tlsRoutesAccepted is GatewayAndTLSRoutesMustBeAccepted: fresh Gateway
// conditions, then TLSRouteMustHaveParents with Accepted=True/Accepted. It
// checks no listener condition.
func tlsRoutesAccepted(gw string, routes ...string) check {
	gnn := nsName(gw)
	gns, _, _ := strings.Cut(gnn, "/")
	return check{fmt.Sprintf("GatewayAndTLSRoutesMustBeAccepted(%s, %v)", gnn, routes), func(v *view) error {
		if _, err := v.freshGateway(gnn); err != nil {
			return err
		}
		for _, r := range routes {
			rnn := nsName(r)
			rns, _, _ := strings.Cut(rnn, "/")
			if err := routeParents(kTLS, rnn, rns != gns, gwParent(gnn, True(cAccepted, "Accepted"))).fn(v); err != nil {
				return fmt.Errorf("%s: %w", rnn, err)
			}
		}
		return nil
	}}
}

// policyAccepted and policyResolved are the conditions of a valid
// BackendTLSPolicy.
var (
	policyAccepted = True(cAccepted, "Accepted")
	policyResolved = True(cResolvedRefs, "ResolvedRefs")
)

// btlsCond is BackendTLSPolicyMustHaveCondition, once per condition: every
// ancestor's conditions fresh, and some ancestor named like the Gateway
// (namespace nil or equal; kind and group ignored) has the condition.
func btlsCond(policy, gw string, cs ...cond) check {
	nn, gnn := nsName(policy), nsName(gw)
	return check{fmt.Sprintf("BackendTLSPolicyMustHaveCondition(%s, %s, %v)", nn, gnn, cs), func(v *view) error {
		st, ok := v.policies[nn]
		if !ok {
			return fmt.Errorf("no status for BackendTLSPolicy %s", nn)
		}
		gen := v.generation["BackendTLSPolicy "+nn]
		gns, gname, _ := strings.Cut(gnn, "/")
		for _, c := range cs {
			found := false
			for _, a := range st.Ancestors {
				if err := fresh(gen, a.Conditions); err != nil {
					return fmt.Errorf("ancestor %s: %w", a.AncestorRef.Name, err)
				}
				if string(a.AncestorRef.Name) == gname && (a.AncestorRef.Namespace == nil || string(*a.AncestorRef.Namespace) == gns) &&
					findCondition(a.Conditions, c) {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("no ancestor %s with %s; got %s", gnn, c, ancestorsString(st.Ancestors))
			}
		}
		return nil
	}}
}

// btlsLatest is BackendTLSPolicyMustHaveLatestConditions.
func btlsLatest(policy string) check {
	nn := nsName(policy)
	return check{"BackendTLSPolicyMustHaveLatestConditions(" + nn + ")", func(v *view) error {
		st, ok := v.policies[nn]
		if !ok {
			return fmt.Errorf("no status for BackendTLSPolicy %s", nn)
		}
		for _, a := range st.Ancestors {
			if err := fresh(v.generation["BackendTLSPolicy "+nn], a.Conditions); err != nil {
				return fmt.Errorf("ancestor %s: %w", a.AncestorRef.Name, err)
			}
		}
		return nil
	}}
}

func ancestorsString(as []gwv1.PolicyAncestorStatus) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = fmt.Sprintf("{%s %s/%s %s}", a.ControllerName, derefStr(a.AncestorRef.Namespace), a.AncestorRef.Name, condList(a.Conditions))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// --------------------------------------------------------------------------
// Coverage: every conformance test is a case or is accounted for.

var shortNameRE = regexp.MustCompile(`ShortName:\s*"([A-Za-z0-9]+)"`)

func TestConformanceCoverage(t *testing.T) {
	dir := conformancetest.Dir(t)
	files, err := filepath.Glob(filepath.Join(dir, "tests", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance tests under %s: %v", dir, err)
	}
	covered := func(name string) bool {
		for _, c := range conformanceCases {
			if c.name == name || strings.HasPrefix(c.name, name+"/") {
				return true
			}
		}
		for _, n := range notModelled {
			if n.name == name || strings.HasPrefix(n.name, name+"/") {
				return true
			}
		}
		return false
	}
	var all []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range shortNameRE.FindAllSubmatch(data, -1) {
			all = append(all, string(m[1]))
		}
	}
	sort.Strings(all)
	known := map[string]bool{}
	for _, name := range all {
		known[name] = true
		if !covered(name) {
			t.Errorf("conformance test %s is neither a case nor in notModelled", name)
		}
	}
	for _, c := range conformanceCases {
		base, _, _ := strings.Cut(c.name, "/")
		if !known[base] && !strings.HasPrefix(c.name, "Suite/") {
			t.Errorf("case %s names no conformance test", c.name)
		}
		for _, m := range append(append([]string{}, c.manifests...), c.source) {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m))); err != nil {
				t.Errorf("case %s: %v", c.name, err)
			}
		}
	}
	for _, n := range notModelled {
		base, _, _ := strings.Cut(n.name, "/")
		if !known[base] && base != "mesh" && base != "Suite" {
			t.Errorf("notModelled names %s, which is no conformance test", n.name)
		}
	}
	t.Logf("%d conformance tests; %d cases; %d not-modelled entries", len(all), len(conformanceCases), len(notModelled))
}

// --------------------------------------------------------------------------
// The harness's own matching, against hand-written statuses: each check
// must fail exactly where the suite's helper would.

func TestConformanceHarnessSemantics(t *testing.T) {
	gw, kind, ls := gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway"), gwv1.Kind("ListenerSet")
	infra, web := gwv1.Namespace(infraNS), gwv1.Namespace(webNS)
	mc := func(gen int64, typ, status, reason string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: metav1.ConditionStatus(status), Reason: reason, ObservedGeneration: gen}
	}
	httpKinds := []gwv1.RouteGroupKind{{Group: &gw, Kind: kHTTP}}
	parentStatus := func(group *gwv1.Group, k *gwv1.Kind, ns *gwv1.Namespace, name string, conds ...metav1.Condition) gwv1.RouteParentStatus {
		return gwv1.RouteParentStatus{ControllerName: conformancetest.Controller,
			ParentRef: gwv1.ParentReference{Group: group, Kind: k, Namespace: ns, Name: gwv1.ObjectName(name)}, Conditions: conds}
	}
	one := int32(1)
	v := &view{
		gateways: map[string]*gwv1.GatewayStatus{
			infraNS + "/gw": {
				Conditions: []metav1.Condition{mc(2, cAccepted, "True", "Accepted"), mc(2, cProgrammed, "True", "Programmed")},
				Listeners: []gwv1.ListenerStatus{
					{Name: "http", SupportedKinds: httpKinds, AttachedRoutes: 1,
						Conditions: []metav1.Condition{mc(2, cAccepted, "True", "Accepted"), mc(2, cResolvedRefs, "True", "ResolvedRefs")}},
					{Name: "tcp", SupportedKinds: []gwv1.RouteGroupKind{}, AttachedRoutes: 0,
						Conditions: []metav1.Condition{mc(2, cAccepted, "False", "UnsupportedProtocol")}},
				},
				AttachedListenerSets: &one,
			},
			infraNS + "/stale":   {Conditions: []metav1.Condition{mc(1, cAccepted, "True", "Accepted"), mc(2, cProgrammed, "True", "Programmed")}},
			infraNS + "/skipped": {Conditions: []metav1.Condition{mc(1, cAccepted, "False", "Invalid")}},
		},
		listenerSets: map[string]*gwv1.ListenerSetStatus{
			infraNS + "/ls": {Conditions: []metav1.Condition{mc(1, cAccepted, "True", "Accepted")},
				Listeners: []gwv1.ListenerEntryStatus{{Name: "l", SupportedKinds: httpKinds, AttachedRoutes: 0,
					Conditions: []metav1.Condition{mc(1, cAccepted, "True", "Accepted")}}}},
		},
		routes: map[string]*gwv1.RouteStatus{
			"HTTPRoute " + infraNS + "/same-ns": {Parents: []gwv1.RouteParentStatus{
				parentStatus(&gw, &kind, nil, "gw", mc(1, cAccepted, "True", "Accepted"), mc(1, cResolvedRefs, "False", "BackendNotFound"))}},
			"HTTPRoute " + webNS + "/other-ns": {Parents: []gwv1.RouteParentStatus{
				parentStatus(&gw, &kind, nil, "gw", mc(1, cAccepted, "True", "Accepted"))}},
			"HTTPRoute " + infraNS + "/no-group": {Parents: []gwv1.RouteParentStatus{
				parentStatus(nil, &kind, &infra, "gw", mc(1, cAccepted, "True", "Accepted"))}},
			"HTTPRoute " + infraNS + "/two-rejected": {Parents: []gwv1.RouteParentStatus{
				parentStatus(&gw, &kind, &infra, "gw", mc(1, cAccepted, "False", "NoMatchingParent")),
				parentStatus(&gw, &ls, &infra, "ls", mc(1, cAccepted, "False", "NotAllowedByListeners"))}},
			"HTTPRoute " + infraNS + "/one-rejected": {Parents: []gwv1.RouteParentStatus{
				parentStatus(&gw, &kind, &web, "gw", mc(1, cAccepted, "False", "NotAllowedByListeners"))}},
			"HTTPRoute " + infraNS + "/stale": {Parents: []gwv1.RouteParentStatus{
				parentStatus(&gw, &kind, &infra, "gw", mc(0, cAccepted, "True", "Accepted"))}},
			"TLSRoute " + infraNS + "/stale": {Parents: []gwv1.RouteParentStatus{
				parentStatus(&gw, &kind, &infra, "gw", mc(0, cAccepted, "True", "Accepted"))}},
		},
		policies: map[string]*gwv1.PolicyStatus{
			infraNS + "/p": {Ancestors: []gwv1.PolicyAncestorStatus{{AncestorRef: gwv1.ParentReference{Name: "gw"},
				Conditions: []metav1.Condition{mc(1, cAccepted, "True", "Accepted")}}}},
			infraNS + "/stale-p": {Ancestors: []gwv1.PolicyAncestorStatus{{AncestorRef: gwv1.ParentReference{Namespace: &infra, Name: "gw"},
				Conditions: []metav1.Condition{mc(1, cAccepted, "True", "Accepted")}}}},
		},
		generation: map[string]int64{
			"BackendTLSPolicy " + infraNS + "/p": 1, "BackendTLSPolicy " + infraNS + "/stale-p": 2,
			"Gateway " + infraNS + "/gw": 2, "Gateway " + infraNS + "/stale": 2, "Gateway " + infraNS + "/skipped": 1,
			"ListenerSet " + infraNS + "/ls":    1,
			"HTTPRoute " + infraNS + "/same-ns": 1, "HTTPRoute " + webNS + "/other-ns": 1, "HTTPRoute " + infraNS + "/no-group": 1,
			"HTTPRoute " + infraNS + "/two-rejected": 1, "HTTPRoute " + infraNS + "/one-rejected": 1,
			"HTTPRoute " + infraNS + "/stale": 1, "TLSRoute " + infraNS + "/stale": 1,
		},
		allGateways: []string{infraNS + "/gw", infraNS + "/stale", infraNS + "/skipped"},
		skipReady:   map[string]bool{infraNS + "/skipped": true},
	}
	httpOK := lis{"http", 1, kinds(kHTTP), []cond{True(cAccepted, "")}}
	tcpOK := lis{"tcp", 0, nil, []cond{False(cAccepted, "UnsupportedProtocol")}}
	accepted := True(cAccepted, "Accepted")
	for _, tc := range []struct {
		check check
		pass  bool
	}{
		{gwCond("gw", accepted, True(cProgrammed, "")), true},
		{gwCond("gw", True(cAccepted, "ListenersNotValid")), false}, // reason compared
		{gwCond("gw", False(cAccepted, "")), false},                 // status compared
		{gwCond("gw", True("ResolvedRefs", "")), false},             // absent type
		{gwCond("stale", True(cProgrammed, "")), false},             // one stale condition fails the Gateway
		{gwLatest("stale"), false},
		{gwListeners("gw", httpOK, tcpOK), true},
		{gwListeners("gw", httpOK), false}, // listener count is exact
		{gwListeners("gw", httpOK, lis{"udp", 0, nil, nil}), false},
		{gwListeners("gw", lis{"http", 2, kinds(kHTTP), nil}, tcpOK), false},            // attachedRoutes exact
		{gwListeners("gw", lis{"http", 1, nil, nil}, tcpOK), false},                     // unset kinds demand empty
		{gwListeners("gw", lis{"http", 1, kinds(kHTTP, kGRPC), nil}, tcpOK), false},     // expected kinds ⊆ actual
		{gwListeners("gw", httpOK, lis{"tcp", 0, kinds(kTCP), nil}), false},             // ... even for one kind
		{gwListeners("gw", lis{"http", 1, kinds(kHTTP), acceptedLC()}, tcpOK), false},   // conditions superset
		{gwListenerConds("gw", names("http"), accepted, True(cResolvedRefs, "")), true}, // no freshness here
		{gwListenerConds("gw", nil, True(cAccepted, "")), false},                        // all listeners
		{gwListenerConds("gw", names("http", "https"), True(cAccepted, "")), false},     // named listener missing
		{zeroRoutes("gw"), false},
		{attachedLS("gw", 1), true},
		{attachedLS("stale", 0), false},
		{lsCond("ls", accepted), true},
		{lsListeners("ls", lis{"l", 0, kinds(kHTTP), []cond{accepted}}), true},
		{lsListeners("ls", lis{"l", 0, nil, nil}), false},
		{nsReady(infraNS), false}, // gw is Accepted and Programmed, stale is stale, skipped is skipped
		{routeParents(kHTTP, "same-ns", false, gwParent("gw", accepted)), true},
		{routeParents(kHTTP, "same-ns", true, gwParent("gw", accepted)), false},  // nil namespace
		{routeParents(kHTTP, "same-ns", false, lsParent("gw", accepted)), false}, // kind compared
		{routeParents(kHTTP, "same-ns", false, gwParent("gw", False(cAccepted, ""))), false},
		{routeParents(kHTTP, webNS+"/other-ns", false, gwParent("gw", accepted)), true}, // nil ns passes when not required
		{routeParents(kHTTP, "no-group", false, gwParent("gw", accepted)), false},       // nil group ≠ explicit group
		{routeParents(kHTTP, "stale", false, gwParent("gw", accepted)), false},          // RouteMustHaveParents: fresh
		{routeParents(kTLS, "stale", false, gwParent("gw", accepted)), true},            // TLSRouteMustHaveParents: not
		{routeCond(kHTTP, "same-ns", "gw", False(cResolvedRefs, "BackendNotFound")), true},
		{routeCond(kHTTP, "same-ns", "other/gw", False(cResolvedRefs, "")), true}, // nil parent namespace matches any
		{routeCond(kHTTP, "one-rejected", "gw", False(cAccepted, "")), false},     // namespace set and different
		{routeCond(kHTTP, "same-ns", "gw", True(cResolvedRefs, "")), false},
		{noAccepted(kHTTP, "one-rejected"), true},
		{noAccepted(kHTTP, "two-rejected"), false}, // two parents never pass
		{noAccepted(kHTTP, "same-ns"), false},
		{routeCond(kGRPC, "same-ns", "gw", accepted), false}, // route kind compared
		{btlsCond("p", "gw", accepted), true},
		{btlsCond("p", "other/gw", accepted), true}, // nil ancestor namespace matches any
		{btlsCond("p", "gw2", accepted), false},
		{btlsCond("p", "gw", False(cAccepted, "")), false},
		{btlsCond("stale-p", "gw", accepted), false}, // stale ancestor conditions
		{btlsLatest("p"), true},
		{btlsLatest("stale-p"), false},
	} {
		err := tc.check.fn(v)
		if (err == nil) != tc.pass {
			t.Errorf("%s: pass=%v, want %v (err: %v)", tc.check.what, err == nil, tc.pass, err)
		}
	}
}

// TestConformanceSuiteObjects checks the testdata that models suite.Setup,
// independently of the resolver: every Secret holds a certificate and key
// that form a pair, valid now, with the SANs the suite gives it; every CA
// ConfigMap holds a CA certificate; the GatewayClass carries the harness's
// controllerName.
func TestConformanceSuiteObjects(t *testing.T) {
	wantSANs := map[string][]string{
		webNS + "/certificate":                                       {"*"},
		infraNS + "/tls-validity-checks-certificate":                 {"*", "*.org", "*.wildcard.org"},
		infraNS + "/tls-checks-certificate":                          {"abc.example.com", "other.example.com", "spiffe://abc.example.com/test-identity"},
		infraNS + "/tls-passthrough-checks-certificate":              {"abc.example.com"},
		appNS + "/tls-passthrough-checks-certificate":                {"abc.example.com"},
		infraNS + "/tls-terminate-checks-certificate":                {"tls.example.com"},
		infraNS + "/tls-validity-checks-client-certificate":          nil,
		infraNS + "/tls-validity-checks-per-port-client-certificate": nil,
		infraNS + "/tls-checks-client-certificate":                   nil,
	}
	wantCAs := []string{webNS + "/web-backend-cm", infraNS + "/tls-validity-checks-ca-certificate",
		infraNS + "/tls-validity-checks-per-port-ca-certificate", infraNS + "/tls-checks-ca-certificate", infraNS + "/mismatch-ca-certificate"}

	type object struct {
		APIVersion string            `yaml:"apiVersion"`
		Kind       string            `yaml:"kind"`
		Type       string            `yaml:"type"`
		Data       map[string]string `yaml:"data"`
		Metadata   struct {
			Name      string `yaml:"name"`
			Namespace string `yaml:"namespace"`
		} `yaml:"metadata"`
		Spec struct {
			ControllerName string `yaml:"controllerName"`
		} `yaml:"spec"`
	}
	var objs []object
	for _, f := range suiteObjects {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var o object
			if err := dec.Decode(&o); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			objs = append(objs, o)
		}
	}
	in := resolve.Load(suiteObjects, nil, resolve.Options{})
	if len(in.Errors) > 0 {
		t.Fatalf("read errors:%s", conformancetest.ReadErrors(in.Errors))
	}

	now := time.Now()
	seenSecrets, seenCAs, classes := map[string]bool{}, map[string]bool{}, 0
	for _, o := range objs {
		nn := o.Metadata.Namespace + "/" + o.Metadata.Name
		switch o.Kind {
		case "GatewayClass":
			classes++
			if o.Metadata.Name != "{GATEWAY_CLASS_NAME}" || o.Spec.ControllerName != conformancetest.Controller {
				t.Errorf("GatewayClass %s controllerName %s: want {GATEWAY_CLASS_NAME} with %s", o.Metadata.Name, o.Spec.ControllerName, conformancetest.Controller)
			}
		case "Secret":
			seenSecrets[nn] = true
			sans, known := wantSANs[nn]
			if !known {
				t.Errorf("unexpected Secret %s", nn)
				continue
			}
			if o.Type != "kubernetes.io/tls" {
				t.Errorf("Secret %s: type %q, want kubernetes.io/tls", nn, o.Type)
			}
			crt, err1 := base64.StdEncoding.DecodeString(o.Data["tls.crt"])
			key, err2 := base64.StdEncoding.DecodeString(o.Data["tls.key"])
			if err := errors.Join(err1, err2); err != nil {
				t.Errorf("Secret %s: %v", nn, err)
				continue
			}
			pair, err := tls.X509KeyPair(crt, key)
			if err != nil {
				t.Errorf("Secret %s: %v", nn, err)
				continue
			}
			leaf := pair.Leaf
			if now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
				t.Errorf("Secret %s: certificate valid %s..%s only", nn, leaf.NotBefore, leaf.NotAfter)
			}
			got := append([]string{}, leaf.DNSNames...)
			for _, u := range leaf.URIs {
				got = append(got, u.String())
			}
			sort.Strings(got)
			if sans != nil && !slices.Equal(got, sans) {
				t.Errorf("Secret %s: SANs %v, want %v", nn, got, sans)
			}
		case "ConfigMap":
			seenCAs[nn] = true
			block, _ := pem.Decode([]byte(o.Data["ca.crt"]))
			if block == nil {
				t.Errorf("ConfigMap %s: ca.crt holds no PEM", nn)
				continue
			}
			ca, err := x509.ParseCertificate(block.Bytes)
			if err != nil || !ca.IsCA {
				t.Errorf("ConfigMap %s: ca.crt is not a CA certificate (%v)", nn, err)
			}
		}
	}
	for nn := range wantSANs {
		if !seenSecrets[nn] {
			t.Errorf("Secret %s missing", nn)
		}
	}
	for _, nn := range wantCAs {
		if !seenCAs[nn] {
			t.Errorf("ConfigMap %s missing", nn)
		}
	}
	if classes != 1 {
		t.Errorf("want one GatewayClass, got %d", classes)
	}
	// The resolver, too, must find every Secret usable.
	for _, obj := range in.Objects {
		if s, ok := obj.(*resolve.Secret); ok && s.CertificateProblem != "" {
			t.Errorf("resolver: Secret %s: %s", s.Ref.NamespacedName(), s.CertificateProblem)
		}
	}
}
