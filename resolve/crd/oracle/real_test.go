package oracle

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve/crd"
)

// collectRuleMessages adds the messages of the CEL rules of s to msgs.
func collectRuleMessages(s *structuralschema.Structural, msgs map[string]bool) {
	if s == nil {
		return
	}
	for _, r := range s.XValidations {
		if !strings.Contains(r.Rule, "oldSelf") {
			msgs[r.Message] = true
		}
	}
	for _, p := range s.Properties {
		collectRuleMessages(&p, msgs)
	}
	collectRuleMessages(s.Items, msgs)
	if s.AdditionalProperties != nil {
		collectRuleMessages(s.AdditionalProperties.Structural, msgs)
	}
}

// realVersion is one served CRD version, compiled the way the API server
// compiles it.
type realVersion struct {
	namespaced bool
	structural *structuralschema.Structural
	schema     apiextensionsvalidation.SchemaValidator
	cel        *cel.Validator
}

type gvkch struct {
	group, version, kind string
	ch                   crd.Channel
}

// gatewayAPIDir is the module of one release of gateway-api in the module
// cache, downloaded by the go command if need be (from outside any module,
// so no go.mod changes). The go command downloads the zip of a release
// whose go.mod asks for a newer Go than the one running but does not
// extract it: the files the oracle reads are then extracted under
// extractRoot.
func gatewayAPIDir(rel crd.Release) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", "sigs.k8s.io/gateway-api@"+rel.String())
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Zip, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Dir == "" && info.Zip == "" {
		return "", fmt.Errorf("go mod download sigs.k8s.io/gateway-api@%s: %v %s", rel, err, info.Error)
	}
	if info.Dir != "" {
		return info.Dir, nil
	}
	dir := filepath.Join(extractRoot, rel.String())
	return dir, extractModule(info.Zip, "sigs.k8s.io/gateway-api@"+rel.String()+"/", dir)
}

// extractModule writes the files of a module zip under config/crd,
// examples and hack/invalid-examples into dir.
func extractModule(zipFile, prefix, dir string) error {
	zr, err := zip.OpenReader(zipFile)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, prefix)
		if !ok || !(strings.HasPrefix(name, "config/crd/") || strings.HasPrefix(name, "examples/") || strings.HasPrefix(name, "hack/invalid-examples/")) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// loadCRDs compiles every served version of the CRDs of both channels,
// and returns them with the messages of their spec's CEL rules.
func loadCRDs(moduleDir string) (map[gvkch]*realVersion, map[string]bool, error) {
	out := map[gvkch]*realVersion{}
	msgs := map[string]bool{}
	for ch, dir := range map[crd.Channel]string{crd.Standard: "standard", crd.Experimental: "experimental"} {
		files, _ := filepath.Glob(filepath.Join(moduleDir, "config/crd", dir, "*.yaml"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			for _, doc := range splitYAML(data) {
				var meta struct{ Kind string }
				if err := yaml.Unmarshal(doc, &meta); err != nil || meta.Kind != "CustomResourceDefinition" {
					continue
				}
				var v1crd apiextensionsv1.CustomResourceDefinition
				if err := yaml.UnmarshalStrict(doc, &v1crd); err != nil {
					return nil, nil, fmt.Errorf("%s: %w", f, err)
				}
				var in apiextensions.CustomResourceDefinition
				if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1crd, &in, nil); err != nil {
					return nil, nil, fmt.Errorf("%s: %w", f, err)
				}
				for _, v := range in.Spec.Versions {
					if !v.Served {
						continue
					}
					// The conversion hoists schemas shared by all versions to
					// spec.validation.
					schema := in.Spec.Validation
					if v.Schema != nil {
						schema = v.Schema
					}
					rv, err := compile(schema.OpenAPIV3Schema)
					if err != nil {
						return nil, nil, fmt.Errorf("%s %s: %w", f, v.Name, err)
					}
					if c, ok := rv.structural.Properties["spec"]; ok {
						collectRuleMessages(&c, msgs) // status is not validated on create
					}
					rv.namespaced = in.Spec.Scope == apiextensions.NamespaceScoped
					out[gvkch{in.Spec.Group, v.Name, in.Spec.Names.Kind, ch}] = rv
				}
			}
		}
	}
	return out, msgs, nil
}

func compile(s *apiextensions.JSONSchemaProps) (*realVersion, error) {
	ss, err := structuralschema.NewStructural(s)
	if err != nil {
		return nil, err
	}
	if err := structuraldefaulting.PruneDefaults(ss); err != nil {
		return nil, err
	}
	sv, _, err := apiextensionsvalidation.NewSchemaValidator(s)
	if err != nil {
		return nil, err
	}
	return &realVersion{structural: ss, schema: sv, cel: cel.NewValidator(ss, true, celconfig.PerCallLimit)}, nil
}

// finding is one (path, type) pair, the unit of comparison.
type finding struct{ path, typ string }

// realResult is what the API server reports for a document.
type realResult struct {
	findings map[finding]string // -> message
	typeErr  bool               // a wrong JSON type: CEL is not compared
}

// typeMismatch recognises kube-openapi's type errors (as opposed to format
// errors, which share the InvalidType code but not the JSON type names).
var typeMismatch = regexp.MustCompile(`must be of type (object|array|string|integer|number|boolean|int32|int64)(,\w+)*: "(string|integer|number|boolean|array|object|null|int64|float64|)"$`)

// validate runs the API server's create path on u (decoded with
// apimachinery's json, numbers int64 or float64), which it consumes.
//
// gwlint deliberately differs from the API server on one point, mirrored
// here: the API server skips CEL entirely after a "blocking" schema error;
// gwlint still reports failed rules then, but not rule evaluation errors,
// and no CEL at all when a value has the wrong type (crd.Validate's doc).
func (rv *realVersion) validate(u map[string]any) realResult {
	res := realResult{findings: map[finding]string{}}
	orig := runtime.DeepCopyJSON(u)
	add := func(path, typ, msg string) { res.findings[finding{path, typ}] = msg }

	// Decoding (unstructuredSchemaCoercer.apply, strict field validation).
	_, _, metaUnknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		// The request fails on the first malformed field. gwlint reports
		// each, found field by field like DropMalformedFields does, and
		// goes on as if they were absent (which is how the unstructured
		// accessors below read them).
		res.typeErr = true
		if m, ok := u["metadata"].(map[string]any); ok {
			for k, v := range m {
				single, _ := json.Marshal(map[string]any{k: v})
				if json.Unmarshal(single, &metav1.ObjectMeta{}) != nil {
					add("metadata."+k, "Invalid value", err.Error())
				}
			}
		} else {
			add("metadata", "Invalid value", err.Error())
			u["metadata"] = map[string]any{}
		}
		_, _, metaUnknown, _ = schemaobjectmeta.GetObjectMetaWithOptions(u, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true, DropMalformedFields: true})
	}
	unknown := structuralpruning.PruneWithOptions(u, rv.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, rv.structural)
	if err, paths := schemaobjectmeta.CoerceWithOptions(nil, u, rv.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true}); err != nil {
		add(err.Field, err.Type.String(), err.Error())
	} else {
		unknown = append(unknown, paths...)
	}
	for _, p := range append(metaUnknown, unknown...) {
		add(rv.normalize(p, orig), crd.TypeUnknownField, "unknown field "+p)
	}
	// Defaulting (unstructuredDefaulter).
	structuraldefaulting.Default(u, rv.structural)

	// Create: PrepareForCreate drops status; BeforeCreate sets the
	// namespace of the request (or clears it) and generates the name.
	delete(u, "status")
	obj := &unstructured.Unstructured{Object: u}
	switch {
	case !rv.namespaced:
		obj.SetNamespace("")
	case obj.GetNamespace() == "":
		obj.SetNamespace("default")
	}
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		g := obj.GetGenerateName()
		obj.SetName(g[:min(len(g), 58)] + "bcdfg")
	}

	// customResourceStrategy.Validate.
	var errs field.ErrorList
	errs = append(errs, validation.ValidateObjectMetaAccessor(obj, rv.namespaced, validation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, apiextensionsvalidation.ValidateCustomResource(nil, u, rv.schema)...)
	errs = append(errs, schemaobjectmeta.Validate(context.Background(), nil, u, rv.structural, false)...)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, rv.structural, u)...)
	blocking := false
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			blocking = true
		}
		if e.Type == field.ErrorTypeTypeInvalid && typeMismatch.MatchString(e.Detail) {
			res.typeErr = true
		}
		add(rv.normalizeError(e, u), e.Type.String(), e.ErrorBody())
	}
	if !res.typeErr {
		celErrs, _ := rv.cel.Validate(context.Background(), nil, rv.structural, u, nil, 1<<50)
		for _, e := range celErrs {
			evalErr := strings.Contains(e.Detail, " evaluating rule: ") || strings.Contains(e.Detail, "call arguments did not match")
			if evalErr && blocking {
				continue
			}
			add(e.Field, e.Type.String(), e.ErrorBody())
		}
	}
	return res
}

var (
	// kube-openapi errors that are not *errors.Validation are reported at
	// "<nil>" with the path in the message.
	checkedIn = regexp.MustCompile(`^Checked value must be of type integer .* in (.+)$`)
	quoted    = regexp.MustCompile(`^"([^"]*)" must `)
)

// normalizeError returns the field path of e in field.Path form.
func (rv *realVersion) normalizeError(e *field.Error, doc any) string {
	if e.Field == "<nil>" {
		if m := checkedIn.FindStringSubmatch(e.Detail); m != nil {
			return rv.normalize(m[1], doc)
		}
		if m := quoted.FindStringSubmatch(e.Detail); m != nil {
			return rv.normalize(m[1], doc)
		}
	}
	return rv.normalize(e.Field, doc)
}

// normalize turns a kube-openapi or pruning path, which joins map keys
// with dots, into the field.Path form, with keys in brackets. Keys can hold
// dots, so it walks the document (doc) to find them, and the structural
// schema to tell properties from map keys.
func (rv *realVersion) normalize(p string, doc any) string {
	s := rv.structural
	var b strings.Builder
	for p != "" {
		switch p[0] {
		case '[':
			end := strings.IndexByte(p, ']')
			b.WriteString(p[:end+1])
			i, _ := strconv.Atoi(p[1:end])
			p = p[end+1:]
			if s != nil {
				s = s.Items
			}
			if l, ok := doc.([]any); ok && i < len(l) {
				doc = l[i]
			} else {
				doc = nil
			}
			continue
		case '.':
			p = p[1:]
			continue
		}
		// The longest key of the document that p starts with, else the
		// next segment.
		key := ""
		if m, ok := doc.(map[string]any); ok {
			for k := range m {
				if len(k) > len(key) && strings.HasPrefix(p, k) && (len(p) == len(k) || p[len(k)] == '.' || p[len(k)] == '[') {
					key = k
				}
			}
		}
		if key == "" {
			key = p
			if i := strings.IndexAny(p, ".["); i >= 0 {
				key = p[:i]
			}
		}
		var next *structuralschema.Structural
		if s != nil {
			if c, ok := s.Properties[key]; ok {
				next = &c
			} else if s.AdditionalProperties != nil {
				next = s.AdditionalProperties.Structural
			}
		}
		if s != nil && next != nil && len(s.Properties) == 0 {
			b.WriteString("[" + key + "]")
		} else {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(key)
		}
		if m, ok := doc.(map[string]any); ok {
			doc = m[key]
		} else {
			doc = nil
		}
		p, s = p[len(key):], next
	}
	return b.String()
}

// splitYAML splits a multi-document YAML stream on `---` lines, counting
// documents like the corpus generator does.
func splitYAML(data []byte) [][]byte {
	var docs [][]byte
	var cur []string
	flush := func() {
		// Only blank and comment lines: not a document.
		for _, l := range cur {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				docs = append(docs, []byte(strings.Join(cur, "")))
				break
			}
		}
		cur = nil
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.TrimRight(line, " \r\n") == "---" {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return docs
}
