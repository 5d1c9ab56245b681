package trace

// Reason says why Tracer.Trace chose what it chose: why one match
// outranks another (the spec's precedence criteria, in the order the spec
// lists them), why a route did not match, and what the Gateway does with
// the request. These are gwlint's names, not the API's: no controller
// writes them.
type Reason string

// Precedence criteria, in the order they are compared (see matchRank).
const (
	PrecedenceListenerHostname Reason = "ListenerHostname"
	PrecedenceHostname         Reason = "Hostname"
	PrecedencePathType         Reason = "PathType"
	PrecedencePathLength       Reason = "PathLength"
	PrecedenceMethod           Reason = "Method"
	PrecedenceHeaders          Reason = "Headers"
	PrecedenceQueryParams      Reason = "QueryParams"
	PrecedenceGRPCService      Reason = "GRPCService"
	PrecedenceGRPCMethod       Reason = "GRPCMethod"
	PrecedenceCreationTime     Reason = "CreationTimestamp"
	PrecedenceName             Reason = "NamespaceName"
	PrecedenceRuleOrder        Reason = "RuleOrder"
	PrecedenceOnlyMatch        Reason = "OnlyMatch"
)

// Why a route attached to the listener did not match the request.
const (
	MissHostname   Reason = "HostnameNotServed"
	MissPath       Reason = "PathMismatch"
	MissMethod     Reason = "MethodMismatch"
	MissHeader     Reason = "HeaderMismatch"
	MissQueryParam Reason = "QueryParamMismatch"
	MissGRPCMethod Reason = "GRPCMethodMismatch"
	// MissNoRules: the route has no rules (a GRPCRoute may leave them
	// out), so nothing of it matches.
	MissNoRules Reason = "NoRules"
)
