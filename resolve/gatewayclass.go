package resolve

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// GatewayClassResult is a GatewayClass among the inputs with the conditions
// its controller writes: the offline controller owns every class it is
// shown.
type GatewayClassResult struct {
	*GatewayClass
	// Parameters is spec.parametersRef resolved; nil when it is not set.
	Parameters *RefResult
	// Accepted: "Accepted" unless the parametersRef names an object the
	// inputs show does not exist, or one its implementation refuses
	// (ParametersJudge): "InvalidParameters".
	// One they do not show is assumed valid.
	Accepted Condition
	// SupportedVersion: the class's CRDs are the Gateway API version gwlint
	// pins, so always True.
	SupportedVersion Condition
}

func (g *Graph) resolveGatewayClasses(b *Builder) {
	for _, c := range g.GatewayClasses {
		c.Accepted = condition(string(gwv1.GatewayClassConditionStatusAccepted), true, ReasonAccepted,
			"GatewayClass accepted by "+string(c.Spec.ControllerName))
		if pr := c.Spec.ParametersRef; pr != nil {
			p, _ := g.choice.ForGateway(true, string(c.Spec.ControllerName), c.Ref.Name)
			judge, _ := g.judgeFor(p).steps.(ParametersJudge)
			target := ObjectRef{Kind: string(pr.Kind), Name: pr.Name}
			if pr.Namespace != nil {
				target.Namespace = string(*pr.Namespace)
			} else if judge != nil {
				target.Namespace = judge.ClassParametersNamespace()
			}
			c.Parameters = &RefResult{Path: "spec.parametersRef", Group: string(pr.Group), Target: target}
			lookup := target
			lookup.Kind = qualifiedKind(string(pr.Group), target.Kind)
			obj, presence := g.Lookup(lookup)
			c.Parameters.Presence = presence
			if presence == Missing {
				c.Parameters.Reason = ReasonInvalidParameters
				c.Parameters.Message = fmt.Sprintf("parametersRef: %s", g.describeAbsence(target, Missing))
			} else if judge != nil {
				judge.JudgeClassParameters(b, c, obj)
			}
			if !c.Parameters.OK() {
				c.Accepted = condition(string(gwv1.GatewayClassConditionStatusAccepted), false, ReasonInvalidParameters, c.Parameters.Message)
			}
		}
		c.SupportedVersion = condition(string(gwv1.GatewayClassConditionStatusSupportedVersion), true, ReasonSupportedVersion,
			"Gateway API "+APIVersion+" is supported")
	}
}

func (c *GatewayClassResult) gatewayClassStatus() gwv1.GatewayClassStatus {
	return gwv1.GatewayClassStatus{Conditions: conditions(&c.Meta, c.Accepted, c.SupportedVersion)}
}
