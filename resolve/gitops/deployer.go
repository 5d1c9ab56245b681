package gitops

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// deployer is an object that deploys a path of the repository: a Flux
// Kustomization or an Argo CD Application.
type deployer interface {
	// identity is its file and name: the same deployer whether read alone
	// or as its parent's build gives it.
	identity() string
	// version tells two versions of one deployer apart: a parent's build
	// may change it (its namespace, a patch).
	version() string
	// folder is the folder an entry point is judged with: its unit's
	// root, or the directory of its file.
	folder() string
	object() *manifest.Object
	// deploys is the directory it deploys, and whether the repository
	// holds it.
	deploys(b *builder) (string, bool)
	// deploy builds what it deploys, or says why that is unknown.
	deploy(b *builder) *build
}

// deployers are the deployers among objects kept, read in unit.
func deployers(kept []*manifest.Object, unit string) []deployer {
	var out []deployer
	for _, raw := range kept {
		if k := parseKustomization(raw); k != nil {
			k.unit = unit
			out = append(out, k)
		}
		for _, app := range parseApplications(raw) {
			app.unit = unit
			out = append(out, app)
		}
	}
	return out
}

// folderOf is the folder of a deployer read as raw in unit.
func folderOf(raw *manifest.Object, unit string) string {
	if unit != "" {
		return unit
	}
	return filepath.Dir(raw.Source.File)
}

// header is the envelope of an object that assembly reads.
type header struct {
	Metadata struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Spec json.RawMessage `json:"spec"`
}

// readHeader reads raw's header when raw is of group and one of kinds
// (any kind when none is given); ok is false when it is not, or cannot be
// read (its own findings say why).
func readHeader(raw *manifest.Object, group string, kinds ...string) (h header, ok bool) {
	if g, _, _ := strings.Cut(raw.APIVersion, "/"); g != group || (len(kinds) > 0 && !slices.Contains(kinds, raw.Kind)) {
		return h, false
	}
	return h, json.Unmarshal(raw.JSON, &h) == nil
}
