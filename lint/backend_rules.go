package lint

import "github.com/gwlint/gwlint/resolve"

var backendNotFound = &Rule{
	ID: "backend-not-found", Severity: Error,
	Summary: "backendRef names a Service that does not exist",
	Doc: Doc{
		Text: `The Service does not exist: the inputs hold the backend's namespace whole (it
is listed under ownedNamespaces in .gwlint.yaml, or --strict-refs is given)
but not this Service, or its name is one slip of the keyboard from a Service
beside it (the message says which). A controller sets
ResolvedRefs=False/BackendNotFound and answers the backend's share of
requests with HTTP 500. A Namespace object among the inputs is no such
evidence; where the inputs hold only part of the namespace, ref-unlisted
warns instead, and a Service that an object among the inputs will create (a
Flagger Canary's -primary and -canary Services) is assumed to exist.

Fix: correct the name, or add the Service.`,
		Example: `backendRefs:
- name: store-v3   # before: no such Service
- name: store-v2   # after
  port: 8080`,
	},
	Run: reportBackends(resolve.NotFound, ".name"),
}

var backendPortNotFound = &Rule{
	ID: "backend-port-not-found", Severity: Error,
	Summary: "backendRef port is not a port of the Service",
	Doc: Doc{
		Text: `backendRef.port must be one of the Service's spec.ports[].port (the Service
port, not the targetPort or container port). Otherwise its share gets HTTP 500,
and the route's ResolvedRefs is False/BackendNotFound (Envoy Gateway writes its
own reason PortNotFound; Istio does not check ports and leaves it True).

Fix: use the Service port.`,
		Example: `- name: store      # Service ports: 80/http
  port: 8080       # before
  port: 80         # after`,
	},
	Run: reportBackends(resolve.PortNotFound, ".port"),
}

var backendRefNotPermitted = &Rule{
	ID: "backend-ref-not-permitted", Severity: Error,
	Summary: "cross-namespace backendRef without a ReferenceGrant",
	Doc: Doc{
		Text: `A route may refer to a backend in another namespace only when a ReferenceGrant
in that namespace allows the route's kind and namespace (and the name, if the
grant lists one). Without it: ResolvedRefs=False/RefNotPermitted, HTTP 500.

Fix: add a ReferenceGrant in the backend's namespace:`,
		Example: `apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: allow-store-routes, namespace: backends}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: store}]
  to: [{group: "", kind: Service, name: inventory}]`,
	},
	Run: reportBackends(resolve.NotPermitted, ".namespace"),
}

var backendServiceNoPort = &Rule{
	ID: "backend-service-no-port", Severity: Error,
	Summary: "Service backendRef without a port (GEP-718)",
	Doc: Doc{
		Text: `GEP-718: "Port is required when the referent is a Kubernetes Service." The kind
defaults to Service, so a backendRef without kind needs a port too; the API
server rejects the route.

Fix:`,
		Example: `- name: store          # before
- name: store          # after
  port: 8080`,
	},
	Run: reportBackends(resolve.NoPort, ""),
}

var backendUnsupportedKind = &Rule{
	ID: "backend-unsupported-kind", Severity: Warning,
	Summary: "backendRef kind is not a Service or ServiceImport",
	Doc: Doc{
		Text: `Conformant controllers support core Services (and, extended, ServiceImports)
as backends; any other kind is implementation-specific: a controller that does
not support it sets ResolvedRefs=False/InvalidKind and answers the backend's
share with HTTP 500. A warning, since your implementation may support it.

Fix: point at a Service, or check that your implementation supports the kind.`,
	},
	Run: reportBackends(resolve.UnsupportedRef, ".kind"),
}
