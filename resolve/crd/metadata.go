package crd

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The CRD schemas declare metadata as a bare object: the API server decodes
// it strictly into an ObjectMeta (unknown fields are reported, a wrong type
// fails the request) and validates it with apimachinery's
// ValidateObjectMetaAccessor, which gwlint calls too.

// validateMetadata checks the metadata of the original document.
func (w *walker) validateMetadata(v any, namespaced bool) {
	if m, ok := v.(map[string]any); ok && plainValidMetadata(m) {
		return
	}
	var meta metav1.ObjectMeta
	n := w.pushField("metadata")
	w.decodeMetadata(v, &meta)
	w.pop(n)
	switch {
	case !namespaced:
		meta.Namespace = "" // create ignores it for a cluster-scoped kind
	case meta.Namespace == "":
		meta.Namespace = "default" // the request's namespace
	}
	if meta.Name == "" && meta.GenerateName != "" {
		// Create generates the name before validating it (SimpleNameGenerator).
		meta.Name = meta.GenerateName[:min(len(meta.GenerateName), 58)] + "bcdfg"
	}
	for _, e := range validation.ValidateObjectMetaAccessor(&meta, namespaced, validation.NameIsDNSSubdomain, field.NewPath("metadata")) {
		if bad, ok := e.BadValue.(string); ok && w.ph.Contains(bad) {
			continue // unknown until substituted (unknown.go)
		}
		switch e.Type {
		case field.ErrorTypeRequired, field.ErrorTypeNotSupported, field.ErrorTypeTooLong, field.ErrorTypeTooMany:
			w.blocking = true
		}
		w.out = append(w.out, Violation{Path: e.Field, Type: e.Type.String(), Message: e.ErrorBody()})
	}
}

// plainValidMetadata reports, cheaply, metadata with only a name, a
// namespace, labels and annotations, all certainly valid: the usual case,
// for which ValidateObjectMetaAccessor (regexps, allocations) would report
// nothing. The checks are the same as IsDNS1123Subdomain, IsDNS1123Label,
// IsQualifiedName and IsValidLabelValue, only stricter on length.
func plainValidMetadata(m map[string]any) bool {
	name, _ := m["name"].(string)
	if len(name) > 253 || !isSubdomainish(name) {
		return false
	}
	annotationBytes := 0
	for k, v := range m {
		switch k {
		case "name":
		case "namespace":
			ns, ok := v.(string)
			if !ok || len(ns) > 63 || (ns != "" && !isLabelish(ns)) {
				return false
			}
		case "labels", "annotations":
			kv, ok := v.(map[string]any)
			if !ok {
				return false
			}
			for key, val := range kv {
				s, ok := val.(string)
				if !ok || len(key) > 63 || !isLabelKeyish(key) {
					return false
				}
				if k == "labels" && (len(s) > 63 || (s != "" && !isQualifiedNamePart(s))) {
					return false
				}
				annotationBytes += len(key) + len(s)
			}
		default:
			return false
		}
	}
	return annotationBytes <= validation.TotalAnnotationSizeLimitB
}

// decodeMetadata is the strict JSON decoding of metadata into meta.
func (w *walker) decodeMetadata(v any, meta *metav1.ObjectMeta) {
	if v == nil {
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		w.metaTypeError(v, "object")
		return
	}
	for k, x := range m {
		n := w.pushField(k)
		if !slices.Contains(objectMetaFields, k) {
			w.unknown(k)
		} else if x != nil { // JSON null decodes to the zero value
			w.metaField = string(w.path)
			w.decodeMetaField(meta, k, x)
		}
		w.pop(n)
	}
	w.metaField = ""
}

// decodeMetaField decodes the value x of the ObjectMeta field k.
func (w *walker) decodeMetaField(meta *metav1.ObjectMeta, k string, x any) {
	switch k {
	case "name":
		meta.Name = w.metaString(x)
	case "generateName":
		meta.GenerateName = w.metaString(x)
	case "namespace":
		meta.Namespace = w.metaString(x)
	case "uid":
		meta.UID = types.UID(w.metaString(x))
	case "resourceVersion":
		meta.ResourceVersion = w.metaString(x)
	case "selfLink", "creationTimestamp", "deletionTimestamp":
		w.metaString(x)
	case "generation":
		meta.Generation = w.metaInt(x)
	case "deletionGracePeriodSeconds":
		w.metaInt(x)
	case "labels":
		meta.Labels = w.metaStringMap(x)
	case "annotations":
		meta.Annotations = w.metaStringMap(x)
	case "finalizers":
		for i, f := range w.metaList(x) {
			n := w.pushIndex(i)
			meta.Finalizers = append(meta.Finalizers, w.metaString(f))
			w.pop(n)
		}
	case "ownerReferences":
		for i, o := range w.metaList(x) {
			n := w.pushIndex(i)
			meta.OwnerReferences = append(meta.OwnerReferences, w.ownerReference(o))
			w.pop(n)
		}
	case "managedFields":
		// Server-managed bookkeeping nobody writes in a manifest: only
		// its shape is checked.
		for i, e := range w.metaList(x) {
			n := w.pushIndex(i)
			w.metaObject(e, managedFieldsFields)
			w.pop(n)
		}
	}
}

var (
	objectMetaFields = []string{"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
		"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
		"ownerReferences", "finalizers", "managedFields"}
	ownerReferenceFields = []string{"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"}
	managedFieldsFields  = []string{"manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"}
)

func (w *walker) ownerReference(v any) metav1.OwnerReference {
	var o metav1.OwnerReference
	m := w.metaObject(v, ownerReferenceFields)
	for k, x := range m {
		if x == nil {
			continue
		}
		n := w.pushField(k)
		switch k {
		case "apiVersion":
			o.APIVersion = w.metaString(x)
		case "kind":
			o.Kind = w.metaString(x)
		case "name":
			o.Name = w.metaString(x)
		case "uid":
			o.UID = types.UID(w.metaString(x))
		case "controller":
			o.Controller = w.metaBool(x)
		case "blockOwnerDeletion":
			o.BlockOwnerDeletion = w.metaBool(x)
		}
		w.pop(n)
	}
	return o
}

// metaObject returns v as an object, reporting its keys not in fields.
func (w *walker) metaObject(v any, fields []string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		w.metaTypeError(v, "object")
		return nil
	}
outer:
	for k := range m {
		for _, f := range fields {
			if k == f {
				continue outer
			}
		}
		n := w.pushField(k)
		w.unknown(k)
		w.pop(n)
	}
	return m
}

// metaTypeError reports a value ObjectMeta cannot be decoded from, which
// fails the whole request on the API server. Like the API server's JSON
// error, it names the top-level metadata field (the walker's metaField).
func (w *walker) metaTypeError(v any, want string) {
	got, _ := jsonType(v)
	w.blocking, w.typeErr = true, true
	path := w.metaField
	if path == "" {
		path = "metadata"
	}
	w.out = append(w.out, Violation{Path: path, Type: "Invalid value", Message: fmt.Sprintf(
		"Invalid value: %q: cannot unmarshal %s into %s of type %s", got, got, w.path, want)})
}

func (w *walker) metaString(v any) string {
	s, ok := v.(string)
	if !ok {
		w.metaTypeError(v, "string")
	}
	return s
}

func (w *walker) metaBool(v any) *bool {
	b, ok := v.(bool)
	if !ok {
		w.metaTypeError(v, "boolean")
		return nil
	}
	return &b
}

func (w *walker) metaInt(v any) int64 {
	n, ok := toNumber(v)
	if !ok || !n.isInt {
		w.metaTypeError(v, "integer")
	}
	return n.i
}

func (w *walker) metaList(v any) []any {
	l, ok := v.([]any)
	if !ok {
		w.metaTypeError(v, "array")
	}
	return l
}

func (w *walker) metaStringMap(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok {
		w.metaTypeError(v, "object")
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		if x == nil {
			// A null value decodes to "": the key is kept, and validated.
			out[k] = ""
			continue
		}
		n := w.pushKey(k)
		out[k] = w.metaString(x)
		w.pop(n)
	}
	return out
}
