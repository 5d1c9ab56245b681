package resolve

// ParametersJudge reads the objects a GatewayClass's spec.parametersRef and
// a Gateway's spec.infrastructure.parametersRef name, whose content the
// API leaves to each implementation ("If the referent cannot be found,
// refers to an unsupported kind, or when the data within that resource is
// malformed, the Gateway SHOULD be rejected").
type ParametersJudge interface {
	Implementation
	// ClassParametersNamespace is the namespace it looks a GatewayClass's
	// parametersRef up in when the ref names none.
	ClassParametersNamespace() string
	// JudgeClassParameters is asked about a GatewayClass it judges once the
	// core has resolved its parametersRef to an object that is not
	// missing: obj, nil when the inputs do not hold it. It may refuse it
	// (c.Parameters' Reason and Message), which refuses the class.
	JudgeClassParameters(b *Builder, c *GatewayClassResult, obj Object)
	// JudgeGatewayParameters is asked about a Gateway it judges once the
	// core has resolved its own parametersRef: own is the object it names,
	// nil when the inputs hold none. It may refuse the Gateway's
	// parameters, or set the ones it takes from elsewhere
	// (gw.Parameters), refuse the Gateway for them once its listeners are
	// built (gw.ParametersRefusal), and say why the client certificate
	// they offer backends cannot be used (gw.ClientCertificateProblem).
	JudgeGatewayParameters(b *Builder, gw *GatewayResult, own Object)
}

// ParametersProblem is one rule the parameters a GatewayClass or Gateway
// takes break: the field of that object at fault and what is wrong.
type ParametersProblem struct {
	Path    string
	Message string
}
