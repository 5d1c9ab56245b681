package resolve

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gwlint/gwlint/resolve/crd"
)

// VersionState says how the CRDs of the channel in effect serve the
// apiVersion an object was written in.
type VersionState int

const (
	// VersionServed: served, and not deprecated.
	VersionServed VersionState = iota
	// VersionDeprecated: served, and its CRD marks it deprecated; the API
	// server answers every request in it with the CRD's deprecationWarning.
	VersionDeprecated
	// VersionExperimentalOnly: the standard channel is in effect and only
	// the experimental channel's CRDs serve the version.
	VersionExperimentalOnly
	// VersionRetired: an earlier Gateway API release served the version,
	// Gateway API v1.6.3 serves it in neither channel.
	VersionRetired
)

// ChannelOutsideInputs ends the message of what only an assumed standard
// channel refuses (Options.ChannelAssumed).
const ChannelOutsideInputs = "which channel the cluster runs is outside the inputs (standard is gwlint's default; --channel, or the Gateway API CRDs among the inputs, name it)"

// APIVersionInfo is what the CRDs of the channel make of the apiVersion an
// object was written in. The object is read (decoded and validated) as
// ReadAs, so an old version costs one finding, not the whole object; one
// only the experimental channel serves is validated by that channel's
// schema of the version written, which may be looser than its successor's.
type APIVersionInfo struct {
	State VersionState
	// ReadAs is the apiVersion the object was read as: the one written when
	// the channel serves it, else its successor that the channel serves;
	// empty when there is none (an experimental-only kind under the
	// standard channel), and the object is then not validated.
	ReadAs string
	// Message says what is wrong and what to write instead, for every state
	// but VersionServed: the CRD's deprecationWarning for
	// VersionDeprecated.
	Message string
	// Kind is the kind the object was written as when its successor renamed
	// it (XListenerSet, read as ListenerSet); "" otherwise.
	Kind string
	// ChannelAssumed: VersionExperimentalOnly under Options.ChannelAssumed,
	// a guess about the cluster's CRDs rather than a fact.
	ChannelAssumed bool
}

// NotServed reports whether the API server of the channel would refuse the
// object for its apiVersion alone.
func (v APIVersionInfo) NotServed() bool {
	return v.State == VersionExperimentalOnly || v.State == VersionRetired
}

// retiredVersions are the Gateway API versions that earlier releases served
// and v1.6.3 serves in neither channel, whose fields live on in v1, with the
// last release that served each. From the CRDs of each release's
// config/crd/{standard,experimental} (v0.5.0 to v1.6.0):
//
//   - GatewayClass, Gateway and HTTPRoute v1alpha2: served v0.5.0–v0.7.x
//     (deprecated in v0.6.0), dropped in v0.8.0;
//
//   - ReferenceGrant v1alpha2: served v0.5.0–v1.1.x (deprecated in v0.8.0;
//     experimental channel only in v1.1), dropped in v1.2.0;
//
//   - GRPCRoute v1alpha2: served v0.6.0–v1.1.x in the experimental channel
//     (deprecated in v1.1.0), dropped in v1.2.0.
//
//   - BackendTLSPolicy v1alpha2: served v1.0.0–v1.1.x in the experimental
//     channel, dropped in v1.2.0; v1alpha3 renamed its fields (see
//     renameBackendTLSPolicyV1alpha2).
//
//   - XListenerSet gateway.networking.x-k8s.io/v1alpha1: served
//     v1.3.0–v1.4.x in the experimental channel, renamed ListenerSet
//     gateway.networking.k8s.io/v1 by v1.5.0 ("ListenerSet: Promote to
//     standard", #4499). Its spec schema is v1's but for
//     spec.listeners[].port, optional (default 0) there and required in v1,
//     which reading as v1 reports where it is missing.
//
// Every field of these versions is a field of v1.6.3's v1, except GRPCRoute
// v1alpha2's experimental sessionPersistence.idleTimeout, which reading as
// v1 reports as an unknown field, and BackendTLSPolicy v1alpha2's, which are
// renamed first. Not here: the renamed kind ReferencePolicy (v0.4, before
// any v1 field was settled), and versions no release served (ListenerSet
// gateway.networking.k8s.io/v1alpha1, in Envoy Gateway's test inputs).
var retiredVersions = map[string]map[string]retiredVersion{ // apiVersion → kind
	GroupGateway + "/v1alpha2": {
		KindGatewayClass:   {last: "v0.7"},
		KindGateway:        {last: "v0.7"},
		KindHTTPRoute:      {last: "v0.7"},
		KindReferenceGrant: {last: "v1.1"},
		KindGRPCRoute:      {last: "v1.1"},
		KindBackendTLSPolicy: {last: "v1.1", rename: renameBackendTLSPolicyV1alpha2,
			renamed: "targetRef: targetRefs, tls: validation, caCertRefs: caCertificateRefs"},
	},
	GroupGatewayExperimental + "/v1alpha1": {
		"XListenerSet": {last: "v1.4", kind: KindListenerSet,
			renamed: "spec.listeners[].port is required"},
	},
}

// retiredVersion is one entry of retiredVersions.
type retiredVersion struct {
	last string // the last release that served it
	// kind, when set, is the kind its successor renamed it to.
	kind string
	// rename, when set, rewrites a document into its successor's field
	// names before it is read; renamed says what it renames, or what else
	// differs.
	rename  func([]byte) []byte
	renamed string
}

// renameBackendTLSPolicyV1alpha2 rewrites a BackendTLSPolicy v1alpha2
// document into the fields v1alpha3 gave them (v1.2.0's release notes):
// spec.targetRef becomes spec.targetRefs[0], spec.tls.caCertRefs
// spec.validation.caCertificateRefs, spec.tls.wellKnownCACerts
// spec.validation.wellKnownCACertificates, spec.tls.hostname
// spec.validation.hostname. Anything else is kept as written. It returns
// the document unchanged when it is not a JSON object of that shape.
func renameBackendTLSPolicyV1alpha2(doc []byte) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(doc, &obj) != nil {
		return doc
	}
	var spec map[string]json.RawMessage
	if json.Unmarshal(obj["spec"], &spec) != nil || spec == nil {
		return doc
	}
	if ref, ok := spec["targetRef"]; ok {
		spec["targetRefs"] = json.RawMessage("[" + string(ref) + "]")
		delete(spec, "targetRef")
	}
	var tls map[string]json.RawMessage
	if json.Unmarshal(spec["tls"], &tls) == nil && tls != nil {
		for old, renamed := range map[string]string{"caCertRefs": "caCertificateRefs", "wellKnownCACerts": "wellKnownCACertificates"} {
			if v, ok := tls[old]; ok {
				tls[renamed] = v
				delete(tls, old)
			}
		}
		spec["validation"], _ = json.Marshal(tls)
		delete(spec, "tls")
	}
	obj["spec"], _ = json.Marshal(spec)
	out, err := json.Marshal(obj)
	if err != nil {
		return doc
	}
	return out
}

// versionSuccessor is the apiVersion every kind of the group has in
// v1.6.3, and what to write instead of a version the channel does not serve.
const versionSuccessor = GroupGateway + "/v1"

// apiVersionInfo works out how the channel serves apiVersion for kind,
// which the decoder either found among the versions v1.6.3 serves in some
// channel (retired nil) or in retiredVersions (retired, its entry).
// versionInfos holds one APIVersionInfo per distinct value, shared by
// every object read under it (a handful per run): a copy in each object's
// Meta was a sixth of a small object's size. A map of the values itself,
// as a sync.Map would box each key it is asked about.
var versionInfos = struct {
	sync.Mutex
	m map[APIVersionInfo]*APIVersionInfo
}{m: map[APIVersionInfo]*APIVersionInfo{}}

// internVersion returns the shared copy of v; nil for the zero value, which
// Meta.Version reads as served.
func internVersion(v APIVersionInfo) *APIVersionInfo {
	if v == (APIVersionInfo{}) {
		return nil
	}
	versionInfos.Lock()
	defer versionInfos.Unlock()
	p, ok := versionInfos.m[v]
	if !ok {
		p = &v
		versionInfos.m[v] = p
	}
	return p
}

func apiVersionInfo(apiVersion, kind string, crds crd.CRDs, retired *retiredVersion) APIVersionInfo {
	readKind := kind
	if retired != nil && retired.kind != "" {
		readKind = retired.kind
	}
	successor := ""
	if crd.Known(versionSuccessor, readKind, crds) {
		successor = versionSuccessor
	}
	switch {
	case retired != nil:
		write, fields := successor, "which has its fields"
		switch {
		case retired.kind != "":
			write, fields = successor+" "+retired.kind, "which has its fields ("+retired.renamed+")"
		case retired.renamed != "":
			fields = "which renames its fields (" + retired.renamed + ")"
		}
		info := APIVersionInfo{State: VersionRetired, ReadAs: successor,
			Message: fmt.Sprintf("%s %s is not served by Gateway API %s (last served by %s); write %s, %s",
				apiVersion, kind, crds.Release, retired.last, write, fields)}
		if retired.kind != "" {
			info.Kind = kind
		}
		return info
	case !crd.Known(apiVersion, kind, crds):
		info := APIVersionInfo{State: VersionExperimentalOnly, ReadAs: successor}
		if successor == "" {
			info.Message = fmt.Sprintf("%s %s is served only by the experimental channel CRDs of Gateway API %s; it needs them installed (--channel experimental)",
				apiVersion, kind, crds.Release)
		} else {
			info.Message = fmt.Sprintf("%s %s is served only by the experimental channel CRDs of Gateway API %s; write %s, which the standard channel serves",
				apiVersion, kind, crds.Release, successor)
		}
		return info
	}
	if warning := crd.Deprecation(apiVersion, kind, crds); warning != "" {
		return APIVersionInfo{State: VersionDeprecated, ReadAs: apiVersion, Message: warning}
	}
	return APIVersionInfo{State: VersionServed, ReadAs: apiVersion}
}
