package statusdiff

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// Object is one object's identity and the part of its status that is
// compared: read from what gwlint writes (ObjectOf) or from a manifest
// (DecodeObject).
type Object struct {
	Kind      string
	Namespace string
	Name      string
	Status    Status
}

// ID names the object as gwctl does: "HTTPRoute ns/name".
func (o *Object) ID() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// Status is the union of the Gateway, ListenerSet, route and policy status
// schemas, reduced to what is compared: conditions (type, status, reason —
// messages and times are the implementation's own prose), listeners,
// route parents and policy ancestors.
type Status struct {
	Conditions []Cond          `json:"conditions"`
	Listeners  []ListenerEntry `json:"listeners"`
	Parents    []ParentEntry   `json:"parents"`
	Ancestors  []AncestorEntry `json:"ancestors"`
}

// Cond is a condition without its message and times. lastTransitionTime is
// left out on purpose: the projects' goldens write "fake" or null there,
// which metav1.Time would refuse.
type Cond struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// ListenerEntry is a Gateway's or ListenerSet's listener status.
type ListenerEntry struct {
	Name           string      `json:"name"`
	AttachedRoutes *int32      `json:"attachedRoutes"`
	SupportedKinds []GroupKind `json:"supportedKinds"`
	Conditions     []Cond      `json:"conditions"`
}

// GroupKind is an entry of supportedKinds.
type GroupKind struct {
	Group *string `json:"group"`
	Kind  string  `json:"kind"`
}

// ParentEntry is a route's status for one parentRef.
type ParentEntry struct {
	ParentRef      ParentRef `json:"parentRef"`
	ControllerName string    `json:"controllerName"`
	Conditions     []Cond    `json:"conditions"`
}

// AncestorEntry is a policy's status for one ancestor (BackendTLSPolicy:
// the Gateway of a route that uses it).
type AncestorEntry struct {
	AncestorRef    ParentRef `json:"ancestorRef"`
	ControllerName string    `json:"controllerName"`
	Conditions     []Cond    `json:"conditions"`
}

// ParentRef is a parentRef as written in status: other controllers often
// write it as the user did (group and kind omitted), gwlint writes it
// defaulted.
type ParentRef struct {
	Group       *string `json:"group"`
	Kind        *string `json:"kind"`
	Namespace   *string `json:"namespace"`
	Name        string  `json:"name"`
	SectionName *string `json:"sectionName"`
	Port        *int32  `json:"port"`
}

// Key identifies a parentRef of a route in namespace routeNS, defaults
// applied (group gateway.networking.k8s.io, kind Gateway, the route's
// namespace), so that a written and a defaulted spelling compare equal:
// "Gateway ns/name", "Service ns/name:80", "Gateway ns/name/https".
func (p ParentRef) Key(routeNS string) string {
	group, kind, ns := "gateway.networking.k8s.io", "Gateway", routeNS
	if p.Group != nil {
		group = *p.Group
	}
	if p.Kind != nil && *p.Kind != "" {
		kind = *p.Kind
	}
	if p.Namespace != nil && *p.Namespace != "" {
		ns = *p.Namespace
	}
	var b strings.Builder
	if group != "gateway.networking.k8s.io" && group != "" {
		b.WriteString(group + "/")
	}
	b.WriteString(kind + " " + ns + "/" + p.Name)
	if p.SectionName != nil && *p.SectionName != "" {
		b.WriteString("/" + *p.SectionName)
	}
	if p.Port != nil {
		b.WriteString(":" + strconv.Itoa(int(*p.Port)))
	}
	return b.String()
}

// DecodeObject reads the identity and status of one object given as JSON
// (a whole manifest with metadata and status).
func DecodeObject(data []byte) (*Object, error) {
	var doc struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
		Status json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	o := &Object{Kind: doc.Kind, Namespace: doc.Metadata.Namespace, Name: doc.Metadata.Name}
	if len(doc.Status) > 0 && string(doc.Status) != "null" {
		if err := json.Unmarshal(doc.Status, &o.Status); err != nil {
			return nil, fmt.Errorf("status of %s: %w", o.ID(), err)
		}
	}
	return o, nil
}

// ObjectOf reads the status gwlint writes for one object, in the status
// types of the API that resolve writes it in.
func ObjectOf(so resolve.StatusObject) *Object {
	o := &Object{Kind: so.Kind, Namespace: so.Metadata.Namespace, Name: so.Metadata.Name}
	switch st := so.Status.(type) {
	case gwv1.GatewayClassStatus:
		o.Status.Conditions = conds(st.Conditions)
	case gwv1.GatewayStatus:
		o.Status.Conditions = conds(st.Conditions)
		for _, l := range st.Listeners {
			o.Status.Listeners = append(o.Status.Listeners, listenerEntry(l.Name, l.AttachedRoutes, l.SupportedKinds, l.Conditions))
		}
	case gwv1.ListenerSetStatus:
		o.Status.Conditions = conds(st.Conditions)
		for _, l := range st.Listeners {
			o.Status.Listeners = append(o.Status.Listeners, listenerEntry(l.Name, l.AttachedRoutes, l.SupportedKinds, l.Conditions))
		}
	case gwv1.RouteStatus:
		for _, p := range st.Parents {
			o.Status.Parents = append(o.Status.Parents, ParentEntry{
				ParentRef: parentRef(p.ParentRef), ControllerName: string(p.ControllerName), Conditions: conds(p.Conditions)})
		}
	case gwv1.PolicyStatus:
		for _, a := range st.Ancestors {
			o.Status.Ancestors = append(o.Status.Ancestors, AncestorEntry{
				AncestorRef: parentRef(a.AncestorRef), ControllerName: string(a.ControllerName), Conditions: conds(a.Conditions)})
		}
	default:
		// resolve writes one of the API's status types above for each
		// kind: another is a kind this package must learn to read.
		panic(fmt.Sprintf("statusdiff: status of %s is a %T", o.ID(), so.Status))
	}
	return o
}

func conds(cs []metav1.Condition) []Cond {
	out := make([]Cond, 0, len(cs))
	for _, c := range cs {
		out = append(out, Cond{Type: c.Type, Status: string(c.Status), Reason: c.Reason})
	}
	return out
}

func listenerEntry(name gwv1.SectionName, attached int32, kinds []gwv1.RouteGroupKind, cs []metav1.Condition) ListenerEntry {
	l := ListenerEntry{Name: string(name), AttachedRoutes: &attached, Conditions: conds(cs)}
	for _, k := range kinds {
		l.SupportedKinds = append(l.SupportedKinds, GroupKind{Group: (*string)(k.Group), Kind: string(k.Kind)})
	}
	return l
}

func parentRef(r gwv1.ParentReference) ParentRef {
	return ParentRef{
		Group: (*string)(r.Group), Kind: (*string)(r.Kind), Namespace: (*string)(r.Namespace),
		Name: string(r.Name), SectionName: (*string)(r.SectionName), Port: (*int32)(r.Port),
	}
}
