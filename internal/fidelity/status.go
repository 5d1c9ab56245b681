package fidelity

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Object is one object's identity and the part of its status the harness
// compares. Expected objects come from a project's golden files, actual
// ones from resolve's Graph.Statuses, both through the same JSON shape.
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

// ParentRef is a parentRef as written in status: the projects write it as
// the user did (group and kind often omitted), gwctl writes it defaulted.
type ParentRef struct {
	Group       *string `json:"group"`
	Kind        *string `json:"kind"`
	Namespace   *string `json:"namespace"`
	Name        string  `json:"name"`
	SectionName *string `json:"sectionName"`
	Port        *int32  `json:"port"`
}

// key identifies a parentRef of a route in namespace routeNS, defaults
// applied (group gateway.networking.k8s.io, kind Gateway, the route's
// namespace), so that a written and a defaulted spelling compare equal:
// "Gateway ns/name", "Service ns/name:80", "Gateway ns/name/https".
func (p ParentRef) key(routeNS string) string {
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

// kindsString renders supportedKinds as a sorted set, the order being the
// implementation's choice: "GRPCRoute,HTTPRoute".
func kindsString(kinds []GroupKind) string {
	names := make([]string, 0, len(kinds))
	for _, k := range kinds {
		name := k.Kind
		if k.Group != nil && *k.Group != "gateway.networking.k8s.io" {
			name = *k.Group + "/" + name
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
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
