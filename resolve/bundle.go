package resolve

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// The annotations every CRD of a Gateway API release carries
// (standard-install.yaml, experimental-install.yaml, config/crd).
const (
	AnnotationBundleVersion = "gateway.networking.k8s.io/bundle-version"
	AnnotationChannel       = "gateway.networking.k8s.io/channel"
)

// CRDBundle is a Gateway API release whose CRDs the inputs install: a
// CustomResourceDefinition of the API's groups among them, or a remote
// entry that names a release (a kustomization's
// github.com/kubernetes-sigs/gateway-api/config/crd?ref=v1.2.0).
type CRDBundle struct {
	// Version is the release as written: "v1.2.0".
	Version string
	// Channel is the channel as written: "standard" or "experimental".
	Channel string
	// At is where the inputs say so: the annotation, or the entry.
	At manifest.ReadError
	// Via says what installs it: "CustomResourceDefinition
	// httproutes.gateway.networking.k8s.io", or the remote entry.
	Via string
	// Kind is the kind a CustomResourceDefinition defines ("HTTPRoute");
	// "" for a remote entry, which installs every kind.
	Kind string
}

// CRDs are the release and channel the bundle names, as gwlint knows
// them; ok is false for a release gwlint has no CRDs of.
func (b CRDBundle) CRDs() (crd.CRDs, bool) {
	r, err := crd.ParseRelease(b.Version)
	if err != nil {
		return crd.CRDs{}, false
	}
	ch, err := crd.ParseChannel(b.Channel)
	if err != nil {
		return crd.CRDs{}, false
	}
	return crd.CRDs{Release: r, Channel: ch}, true
}

// String is "v1.2.0 (standard channel)".
func (b CRDBundle) String() string { return b.Version + " (" + b.Channel + " channel)" }

// crdBundleOf is the bundle a CustomResourceDefinition of the Gateway
// API's groups installs, when it carries the release's annotations.
func crdBundleOf(raw *manifest.Object) *CRDBundle {
	if raw.Kind != "CustomResourceDefinition" || !strings.HasPrefix(raw.APIVersion, "apiextensions.k8s.io/") {
		return nil
	}
	var doc struct {
		Metadata struct {
			Name        string            `json:"name"`
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
		} `json:"spec"`
	}
	if json.Unmarshal(raw.JSON, &doc) != nil || (doc.Spec.Group != GroupGateway && doc.Spec.Group != GroupGatewayExperimental) {
		return nil
	}
	version := doc.Metadata.Annotations[AnnotationBundleVersion]
	if version == "" {
		return nil
	}
	return &CRDBundle{
		Version: version,
		Channel: cmp.Or(doc.Metadata.Annotations[AnnotationChannel], "standard"),
		At:      *raw.Errorf("metadata.annotations["+AnnotationBundleVersion+"]", ""),
		Via:     "CustomResourceDefinition " + doc.Metadata.Name,
		Kind:    doc.Spec.Names.Kind,
	}
}

// InstalledCRDs is the Gateway API release and channel the inputs install
// (CRDBundles), when they name one gwlint has the CRDs of: the one most
// of them name, the first read on a tie; bundle is the first that names
// it.
func (in *Inputs) InstalledCRDs() (bundle CRDBundle, crds crd.CRDs, ok bool) {
	return installedCRDs(in.InstallingCRDs())
}

// InstalledCRDs is Inputs.InstalledCRDs, of the inputs the graph was
// resolved from.
func (g *Graph) InstalledCRDs() (bundle CRDBundle, crds crd.CRDs, ok bool) {
	return installedCRDs(g.CRDBundles)
}

// InstalledKinds are the release and channel of each kind whose own CRD
// the inputs install (CRDBundle.Kind), where it differs from crds: a
// cluster serves each kind by its CRD, the last applied (standard-install.yaml
// with the experimental TLSRoute CRD beside it is common).
func (in *Inputs) InstalledKinds(crds crd.CRDs) map[string]crd.CRDs {
	var out map[string]crd.CRDs
	for _, b := range in.InstallingCRDs() {
		c, known := b.CRDs()
		if !known || b.Kind == "" {
			continue
		}
		if out == nil {
			out = map[string]crd.CRDs{}
		}
		out[b.Kind] = c
	}
	maps.DeleteFunc(out, func(_ string, c crd.CRDs) bool { return c == crds })
	return out
}

func installedCRDs(bundles []CRDBundle) (bundle CRDBundle, crds crd.CRDs, ok bool) {
	count := map[crd.CRDs]int{}
	var firsts []CRDBundle // the first bundle of each release and channel
	for _, b := range bundles {
		if c, known := b.CRDs(); known {
			if count[c] == 0 {
				firsts = append(firsts, b)
			}
			count[c]++
		}
	}
	for _, b := range firsts {
		if c, _ := b.CRDs(); !ok || count[c] > count[crds] {
			bundle, crds, ok = b, c, true
		}
	}
	return bundle, crds, ok
}

// compared is what each of Options.CompareCRDs refuses or prunes in a
// Gateway API object as written: a nil list where it accepts the object.
// A version the CRDs do not serve is one violation of apiVersion.
func compared(raw *manifest.Object, opts Options) [][]crd.Violation {
	if group, _ := splitAPIVersion(raw.APIVersion); group != GroupGateway && group != GroupGatewayExperimental {
		return nil
	}
	out := make([][]crd.Violation, len(opts.CompareCRDs))
	type schema struct {
		root   any
		pinned bool // crd.Schema
	}
	bySchema := map[schema][]crd.Violation{}
	for i, crds := range opts.CompareCRDs {
		root := crd.Schema(raw.APIVersion, raw.Kind, crds)
		if root == nil {
			out[i] = []crd.Violation{{Path: "apiVersion", Type: "Unsupported value",
				Message: fmt.Sprintf("%s %s is not served by Gateway API %s (%s channel)", raw.APIVersion, raw.Kind, crds.Release, crds.Channel)}}
			continue
		}
		key := schema{root, crds.Release == crd.Pinned}
		vs, done := bySchema[key]
		if !done {
			vs = foldTypos(crd.ValidateJSON(raw.APIVersion, raw.Kind, raw.JSON, crds))
			bySchema[key] = vs
		}
		out[i] = vs
	}
	return out
}

// InstallingCRDs are the bundles the inputs install: CRDBundles, and
// those that remote entries left out name.
func (in *Inputs) InstallingCRDs() []CRDBundle {
	out := in.CRDBundles
	for _, e := range in.Unknowns {
		if b := remoteBundle(e); b != nil {
			out = append(out[:len(out):len(out)], *b)
		}
	}
	return out
}

// remoteBundle is the bundle a remote entry installs when it names a
// Gateway API release: a release's install file
// (https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.2.0/standard-install.yaml)
// or its CRD kustomization at a tag
// (github.com/kubernetes-sigs/gateway-api/config/crd/experimental?ref=v1.2.0,
// as kustomize and Flux name a directory of a repository).
func remoteBundle(e *manifest.ReadError) *CRDBundle {
	url := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(e.Remote, "https://"), "git@"), "ssh://git@")
	url = strings.Replace(url, "github.com:", "github.com/", 1)
	rest, ok := strings.CutPrefix(url, "github.com/kubernetes-sigs/gateway-api")
	if !ok {
		return nil
	}
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, ".git"), "/")
	b := &CRDBundle{At: *e, Via: e.Remote}
	b.At.Msg = ""
	if download, ok := strings.CutPrefix(rest, "releases/download/"); ok {
		version, file, _ := strings.Cut(download, "/")
		channel, ok := strings.CutSuffix(file, "-install.yaml")
		if !ok {
			return nil
		}
		b.Version, b.Channel = version, channel
		return b
	}
	dir, query, _ := strings.Cut(strings.TrimPrefix(rest, "/"), "?")
	for param := range strings.SplitSeq(query, "&") {
		if v, ok := strings.CutPrefix(param, "ref="); ok {
			b.Version = v
		}
	}
	switch strings.Trim(dir, "/") {
	case "config/crd", "config/crd/standard":
		b.Channel = "standard"
	case "config/crd/experimental":
		b.Channel = "experimental"
	default:
		return nil
	}
	if b.Version == "" {
		return nil // the default branch: no release
	}
	return b
}
