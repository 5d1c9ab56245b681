package envoygateway

import "github.com/gwlint/gwlint/resolve/profile"

// Config is what Envoy Gateway's own configuration (its EnvoyGateway
// resource) says about the kinds gwlint reads. gwlint cannot see that
// configuration, and the registry's Implementation{} assumes the zero
// Config; the fidelity harness sets it where Envoy Gateway's translator
// test configures it (internal/gatewayapi/translator_test.go).
type Config struct {
	// Backend is how it serves its Backend kind.
	Backend BackendAPI
	// ExtensionFilters are the ExtensionRef filter kinds it registers
	// besides its own HTTPRouteFilter.
	ExtensionFilters ExtensionFilters
	// ProxyDefaults is what it gives every proxy's parameters.
	ProxyDefaults ProxyDefaults
	// LuaDisabled: it refuses an EnvoyExtensionPolicy's Lua extensions
	// (envoyextensionpolicy.go buildLuas, LuaEnvoyExtensionPolicyDisabled:
	// "feature is disabled in the Gateway"; EnvoyGateway's
	// extensionApis.disableLua). The zero value: enabled, its default.
	LuaDisabled bool
}

// ProxyDefaults is the EnvoyProxy spec Envoy Gateway's own configuration
// (EnvoyGateway, resource.Resources.EnvoyProxyDefaultSpec) merges into
// every EnvoyProxy a Gateway takes (contexts.go attachEnvoyProxy). The
// zero value: none; the fidelity harness gives each case's.
type ProxyDefaults struct {
	// MergeBackends: identical backends of the routes share one cluster,
	// which a class that merges its Gateways refuses (translator.go
	// GetRelevantGateways: "mergeGateways and mergeBackends cannot both be
	// enabled").
	MergeBackends bool
}

// ExtensionFilters are the extension filter kinds Envoy Gateway's
// configuration registers (its extension manager: ExtensionGroupKinds,
// helpers.go ValidateHTTPRouteFilter, which drops a rule whose
// ExtensionRef names another kind: "unknown kind"). The zero value: not
// known, so every kind is taken. The fidelity harness sets it to what Envoy
// Gateway's translator test registers (none).
type ExtensionFilters struct {
	Known bool
	Kinds []profile.GroupKind
}

// BackendAPI is how Envoy Gateway's configuration serves its Backend kind.
// The zero value: served, to a proxy that runs in the cluster. Envoy
// Gateway's default configuration leaves its Backend API off
// (https://gateway.envoyproxy.io/docs/tasks/traffic/backend/, "enable the
// Backend API": extensionApis.enableBackend), but a user who writes
// Backends has turned it on (translator_test.go: BackendEnabled,
// RunningOnHost).
type BackendAPI struct {
	// Disabled: a ref to a Backend gets ResolvedRefs=False/UnsupportedValue
	// (validate.go, validateBackendRefBackend: "Backend is disabled in
	// Envoy Gateway configuration").
	Disabled bool
	// OnHost: its proxy runs on the host (Envoy Gateway's Host
	// infrastructure), which may reach loopback addresses and single-label
	// hostnames (backend.go, validateHostname and validateIP).
	OnHost bool
}
