package job

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// WorkerEnv, set in a worker's otherwise empty environment to Protocol,
// says it was started as one, and by a parent that speaks that protocol.
const WorkerEnv = "GWLINT_RENDER_WORKER"

// Protocol names the form of Request and Response. Change it with them: a
// gwlint-render of another release (an old one on PATH) then refuses to
// serve, where it would drop the fields it does not know and render
// something else.
const Protocol = "2"

// ProtocolMismatch starts what a worker writes to its stderr when its
// parent speaks another protocol.
const ProtocolMismatch = "gwlint-render of another release"

// ReleaseName is the release a chart is rendered as, `helm template`'s
// default.
const ReleaseName = "release-name"

// ChartFile is the file that makes a directory a Helm chart.
const ChartFile = "Chart.yaml"

// Request is one render asked of a worker.
type Request struct {
	Kustomize bool // else Helm
	Dir       string
	Roots     []string // the boundary (manifest.Boundary)
	Output    int      // Limits.Output
	Memory    int64    // Limits.Memory

	// Kustomize only: the Flux Kustomization that builds Dir, if any.
	Flux *FluxBuild

	// Helm only. The values files are read by the parent, each within
	// its own boundary (Renderer.Values).
	ValueFiles []string
	Values     [][]byte
	// TargetPaths, beside Values, set a value at a path in place of
	// merging it, as Flux's valuesFrom.targetPath does; a zero one merges.
	TargetPaths []TargetPath
	// Set are values set one by one after the files (helm --set), as
	// Argo CD's helm.parameters are.
	Set         []Parameter
	ReleaseName string
	Namespace   string
	APIVersions []string
	CRDs        bool // the chart's crds/ are rendered too (helm template --include-crds)
}

// TargetPath is where Flux sets a valuesFrom value (its targetPath), and
// whether it is taken verbatim (literal).
type TargetPath struct {
	Path    string
	Literal bool
}

// Parameter is a value set by name, helm template's --set NAME=VALUE
// (--set-string with ForceString).
type Parameter struct {
	Name, Value string
	ForceString bool
}

// Response is what a render produced, still unread text: the parent parses
// it, with the limits every manifest is read with.
type Response struct {
	Templates []Template // Helm: the rendered templates, sorted by name
	Resources []Built    // Kustomize: the resources of the build, in order
	// Kustomize: the templates of helmCharts as their charts rendered
	// them, named by their files relative to the directory built.
	Inflated []Template
	Errors   []*manifest.ReadError
}

// Template is one rendered template of a chart.
type Template struct {
	Name string // as Helm names it: "chart/templates/x.yaml"
	Text string
}

// Built is one resource of a build, as a worker sends it.
type Built struct {
	ID                    string // kustomize's resource id, for errors
	Kind, Name, Namespace string
	// The file it came from, relative to the kustomization built: Path, or
	// the generator's ConfiguredIn; neither when it came from elsewhere
	// (Repo).
	Path, ConfiguredIn, Repo string
	YAML                     string
}

// FluxBuild is a Flux Kustomization (kustomize.toolkit.fluxcd.io) whose
// spec.path is built, as its kustomize-controller would build it from a
// source that holds the repository.
type FluxBuild struct {
	// Object is the Kustomization as applied: its targetNamespace,
	// namePrefix, nameSuffix, patches, images and components are what
	// Flux's generator adds to the build.
	Object map[string]any
	// Root is the repository's root, which spec.path is relative to.
	Root string
	// File is where the Kustomization is written: a build's errors are
	// there, since the kustomization Flux generates is in no file.
	File string
	// Substitute is set when spec.postBuild is: the build's resources go
	// through Flux's variable substitution, with Vars, the variables the
	// repository shows (substituteFrom's ConfigMaps and Secrets, then
	// spec.postBuild.substitute). With Unknown, a variable Vars lacks may
	// be set where the repository cannot show it (a Secret that is
	// encrypted or not in the repository) and stays a placeholder,
	// ${NAME}; without, Flux substitutes it as unset.
	Substitute bool
	Vars       map[string]string
	Unknown    bool
	// ArgoCD is set when Argo CD builds it (an Application's kustomize
	// options, made a Flux Kustomization's): Argo CD runs the external
	// plugins its kustomize.buildOptions enable, which the repository may
	// not show, where Flux runs none.
	ArgoCD bool
}

// Failed is a render that failed with msg, at file.
func Failed(file, msg string) Response {
	return Response{Errors: []*manifest.ReadError{{File: file, Msg: msg}}}
}

// WriteFrame writes v as JSON, preceded by its length.
func WriteFrame(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(data)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// ReadFrame reads a frame of at most max bytes into v.
func ReadFrame(r io.Reader, max int, v any) error {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	size := binary.BigEndian.Uint64(n[:])
	if size > uint64(max) {
		return fmt.Errorf("a reply of %d bytes, more than the %d allowed", size, max)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
