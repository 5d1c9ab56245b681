package profile

import "sigs.k8s.io/gateway-api/pkg/features"

// conformanceProfiles are the features each conformance profile tests,
// core and extended, as conformance/utils/suite/profiles.go of the pinned
// release defines them (that module is not a dependency). A report that ran
// a profile has been tested on these features, so one it does not claim is
// unsupported.
var conformanceProfiles = map[string][][]features.FeatureName{
	"GATEWAY-HTTP": {
		{features.SupportGateway, features.SupportReferenceGrant, features.SupportHTTPRoute},
		names(features.GatewayExtendedFeatures.UnsortedList()), names(features.HTTPRouteExtendedFeatures.UnsortedList()),
		names(features.BackendTLSPolicyCoreFeatures.UnsortedList()), names(features.BackendTLSPolicyExtendedFeatures.UnsortedList()),
	},
	"GATEWAY-TLS": {
		{features.SupportGateway, features.SupportReferenceGrant, features.SupportTLSRoute},
		names(features.GatewayExtendedFeatures.UnsortedList()), names(features.TLSRouteExtendedFeatures.UnsortedList()),
	},
	"GATEWAY-TCP": {
		{features.SupportGateway, features.SupportReferenceGrant, features.SupportTCPRoute},
		names(features.GatewayExtendedFeatures.UnsortedList()),
	},
	"GATEWAY-UDP": {
		{features.SupportGateway, features.SupportReferenceGrant, features.SupportUDPRoute},
		names(features.GatewayExtendedFeatures.UnsortedList()),
	},
	"GATEWAY-GRPC": {
		{features.SupportGateway, features.SupportReferenceGrant, features.SupportGRPCRoute},
		names(features.GatewayExtendedFeatures.UnsortedList()),
	},
	"MESH-HTTP": {
		{features.SupportMesh, features.SupportHTTPRoute},
		names(features.MeshExtendedFeatures.UnsortedList()),
	},
	"MESH-GRPC": {
		{features.SupportMesh, features.SupportGRPCRoute},
		names(features.MeshExtendedFeatures.UnsortedList()),
	},
}

// formerProfileNames are the names of conformance profiles before v1.1
// (reports of v1.0 and older say HTTP, TLS, MESH).
var formerProfileNames = map[string]string{"HTTP": "GATEWAY-HTTP", "TLS": "GATEWAY-TLS", "MESH": "MESH-HTTP"}

// formerFeatureNames are feature names that reports still use and the
// pinned pkg/features has renamed.
var formerFeatureNames = map[features.FeatureName]features.FeatureName{
	"GatewayInfrastructurePropagation": features.SupportGatewayInfrastructure,
	"MeshHTTPRouteNamedRule":           features.SupportMeshHTTPRouteNamedRouteRule,
}

func names(fs []features.Feature) []features.FeatureName {
	out := make([]features.FeatureName, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// coveredBy returns the features the conformance profile tests and its
// core features.
func coveredBy(profile string) (covered, core []features.FeatureName) {
	if n, ok := formerProfileNames[profile]; ok {
		profile = n
	}
	sets := conformanceProfiles[profile]
	if len(sets) == 0 {
		return nil, nil
	}
	for _, s := range sets {
		covered = append(covered, s...)
	}
	return covered, sets[0]
}
