package main

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/internal/gcpolicy"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/profile"
)

// exitFailure is gwctl's own exit status: the object is not found or not
// accepted anywhere. cli.ExitOK and cli.ExitUsage are the others.
const exitFailure = 1

func failuref(format string, args ...any) error {
	return cli.Errorf(exitFailure, format, args...)
}

// outputError reports a failure to write the result.
func outputError(err error) error {
	return cli.OutputError(exitFailure, err)
}

// withInputErrors raises err to cli.ExitUsage when some input failed to read:
// that outranks the command's own verdict, since the object the user asked
// about may be in the part that was lost.
func withInputErrors(err error, inputFailed bool) error {
	if !inputFailed {
		return err
	}
	var ee *cli.ExitError
	if errors.As(err, &ee) {
		return &cli.ExitError{Code: cli.ExitUsage, Err: ee.Err}
	}
	return &cli.ExitError{Code: cli.ExitUsage}
}

func newRootCmd(streams *cli.IOStreams) *cobra.Command {
	root := cli.SetupRoot(&cobra.Command{
		Use:   "gwctl",
		Short: "Explain Gateway API manifests offline",
		Long: `gwctl reads Kubernetes Gateway API manifests from files and explains, without
a cluster, what a conformant controller would make of them: which listeners
a route attaches to and why others refuse it, where each rule sends its
traffic, which routes bind to a Service in a mesh, and the status a
controller would write.

Objects the inputs do not hold are assumed to exist ("external", or
"unlisted" when the inputs hold others of their kind there), and what depends
on them is undecided; they are "missing" only on evidence: --strict-refs,
ownedNamespaces, or a name one slip of the keyboard from an object beside it
("did you mean"). An object that another among the inputs will create (a
cert-manager Certificate's Secret, a Flagger Canary's Services) is
"generated", and explain names its creator.

Like gwlint, gwctl reads .gwlint.yaml, found from the -f paths upward to the
top of the repository (stdin: the current directory): its exclude,
namespace, strictRefs, ownedNamespaces, channel, implementation and
withoutFeatures; flags override them.

As with kubectl, -n/--namespace and -f/--filename may also come before the
command: "gwctl -n store explain route cart" is "gwctl explain route cart
-n store".`,
		Example: `  # Why does my route not receive traffic?
  gwctl explain route store -n store -f manifests/

  # The status a controller would write, as YAML
  gwctl status -f manifests/

  # kubectl's order
  gwctl -n store -f manifests/ explain route store`,
	}, streams, buildInfo(), newExplainCmd(streams), newStatusCmd(streams, nil), newGraphCmd(streams, nil), newDiffCmd(streams, nil))
	acceptInputFlags(root)
	return root
}

// acceptInputFlags lets -n and -f come before root's subcommands, where
// kubectl takes them: `gwctl -n store explain route cart`, `gwctl explain
// -n store route cart`, `gwctl -f manifests/ status`. Cobra hands the
// command it runs every argument but the command names, so that command's
// own -n and -f (which shadow these) parse them wherever they stand; the
// commands above it only need to know that the two take a value, to find
// the command that follows and to complete it. Hidden persistent flags
// whose values nothing reads tell them, so that help shows -n and -f once,
// on the commands that read them. The commands that read no manifests
// (version, completion) ignore them, as kubectl's ignore its -n.
func acceptInputFlags(root *cobra.Command) {
	fs := root.PersistentFlags()
	fs.StringArrayP("filename", "f", nil, "")
	fs.StringP("namespace", "n", "", "")
	for _, name := range []string{"filename", "namespace"} {
		if err := fs.MarkHidden(name); err != nil {
			panic(err) // defined just above
		}
	}
}

// inputOptions say what to read and how to resolve it; every command
// takes them.
type inputOptions struct {
	Filenames      []string
	Namespace      string
	StrictRefs     bool
	ControllerName string
	Channel        string
	// GatewayAPIVersion is --gateway-api-version, or the configuration's.
	GatewayAPIVersion string
	Implementation    cli.Implementation
	Config            cli.ConfigFlags
	// Values are the Helm values files rendered over every chart's
	// defaults.
	Values []string
	Roots  []string // --root

	// profile and without are Implementation looked up by complete.
	profile *profile.Profile
	without []features.FeatureName
	// config is the configuration file the inputs found (nil for none),
	// and defaultNamespace its namespace when -n was not given: -n also
	// says where to look up NAME, the configuration's namespace does not.
	config           *lint.Config
	defaultNamespace string
}

func (o *inputOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&o.Filenames, "filename", "f", []string{"."},
		"manifest file or directory to read, or - for stdin (repeatable)")
	fs.StringVarP(&o.Namespace, "namespace", "n", "",
		"namespace for objects that name none (default \"default\"), and where to look up NAME")
	cli.AddStrictRefsFlag(fs, &o.StrictRefs)
	fs.StringVar(&o.ControllerName, "controller-name", resolve.DefaultControllerName,
		"controller that manages Gateways whose GatewayClass is outside the inputs")
	fs.StringVar(&o.Channel, "channel", "standard",
		"Gateway API release channel whose CRDs the cluster runs: standard or experimental (which versions it serves)")
	cli.AddGatewayAPIVersionFlag(fs, &o.GatewayAPIVersion)
	cli.AddImplementationFlags(fs, &o.Implementation)
	cli.AddValuesFlag(fs, &o.Values)
	cli.AddRootFlag(fs, &o.Roots)
	cli.AddConfigFlags(fs, &o.Config)
}

// complete refuses an empty input path, reads the configuration the
// inputs find (as gwlint check does) and lets it set what the flags fs did
// not, checks the channel and looks up the implementation.
func (o *inputOptions) complete(fs *pflag.FlagSet) (err error) {
	if err := cli.CheckPaths(o.Filenames); err != nil {
		return err
	}
	cfg, err := o.Config.LoadConfig(o.Filenames)
	if err != nil {
		return err
	}
	if cfg.File != "" {
		o.config = cfg
		if cfg.Namespace != "" && !fs.Changed("namespace") {
			o.defaultNamespace = cfg.Namespace
		}
		if cfg.StrictRefs != nil && !fs.Changed("strict-refs") {
			o.StrictRefs = *cfg.StrictRefs
		}
		if cfg.Channel != "" && !fs.Changed("channel") {
			o.Channel = cfg.Channel
		}
		if cfg.GatewayAPIVersion != "" && !fs.Changed("gateway-api-version") {
			o.GatewayAPIVersion = cfg.GatewayAPIVersion
		}
		if cfg.Implementation != "" && !fs.Changed("implementation") {
			o.Implementation.Name = cfg.Implementation
		}
		if cfg.WithoutFeatures != nil && !fs.Changed("without-features") {
			o.Implementation.WithoutFeatures = cfg.WithoutFeatures
		}
	}
	if _, err = crd.ParseChannel(o.Channel); err != nil {
		return err
	}
	if _, err = cli.Release(o.GatewayAPIVersion); err != nil {
		return err
	}
	o.profile, o.without, err = o.Implementation.Profile()
	return err
}

func (o *inputOptions) resolveOptions() resolve.Options {
	ch, _ := crd.ParseChannel(o.Channel)           // checked by complete
	release, _ := cli.Release(o.GatewayAPIVersion) // checked by complete
	var owned []string
	if o.config != nil {
		owned = o.config.OwnedNamespaces
	}
	return resolve.Options{DefaultNamespace: cmp.Or(o.Namespace, o.defaultNamespace), OwnedNamespaces: owned, StrictRefs: o.StrictRefs, ControllerName: o.ControllerName,
		Channel: ch, Release: release, ReleaseAssumed: o.GatewayAPIVersion == "", Implementation: o.profile, WithoutFeatures: o.without, Implementations: implementations.All()}
}

// loadGraph reads and resolves the inputs. Read errors go to stderr with
// their positions, sorted; what could be read is still resolved, and
// inputFailed reports that something was lost.
//
// The inputs are one graph, unless they deploy clusters (package gitops):
// then each world is resolved on its own, as gwlint check judges it, and
// the graph is that of the first world for which holds is true (the
// first world when none is, or holds is nil), so that the two never
// disagree. The other worlds come back in others.
func loadGraph(o *inputOptions, streams *cli.IOStreams, holds func(*resolve.Graph) bool) (g *resolve.Graph, others []*resolve.Graph, inputFailed bool) {
	loaded := gcpolicy.Set(o.Filenames)
	inputs, walkErrs := cli.FindInputs(o.Filenames, o.config.Excludes, o.Roots)
	inputs.Values = o.Values
	inputs.ChartCopies = o.config.ChartDirs()
	worlds := inputs.Load(streams.In, o.resolveOptions())
	worlds[0].Errors = append(worlds[0].Errors, walkErrs...)
	loaded()
	if !slices.ContainsFunc(worlds, func(w *resolve.Inputs) bool { return w.Cluster != "" }) {
		all := worlds[0]
		for _, w := range worlds[1:] {
			all.Merge(w)
		}
		worlds = []*resolve.Inputs{all}
	}
	in := &resolve.Inputs{Skipped: map[string]int{}}
	for _, w := range worlds {
		in.Errors = append(in.Errors, w.Errors...)
	}
	errs := slices.Clone(in.Errors)
	slices.SortStableFunc(errs, func(a, b *manifest.ReadError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	for _, e := range errs {
		stderrLine(streams, "%s", e)
	}
	graphs := make([]*resolve.Graph, len(worlds))
	for i, w := range worlds {
		graphs[i] = resolve.Resolve(w, o.resolveOptions())
	}
	chosen := 0
	if holds != nil {
		if i := slices.IndexFunc(graphs, holds); i >= 0 {
			chosen = i
		}
	}
	g = graphs[chosen]
	others = slices.Delete(slices.Clone(graphs), chosen, chosen+1)
	if len(worlds) > 1 && worlds[chosen].Cluster != "" {
		stderrLine(streams, "gwctl: note: the inputs deploy %d worlds, each judged on its own as gwlint check judges it; this is the cluster of %s",
			len(worlds), worlds[chosen].Cluster)
	}
	// An object in a version the cluster does not serve is read as its
	// successor; the API server would refuse it as written.
	for _, obj := range g.Objects {
		if m := obj.Metadata(); m.Version().NotServed() {
			stderrLine(streams, "%s: warning: %s: %s", m.Location("apiVersion"), m.Ref, m.Version().Message)
		}
	}
	// A duplicate is not an input error, but explaining one definition
	// while the user edits another would be baffling: say which is used.
	// A copy written as the first changes nothing (object-duplicate
	// does not report it either).
	for _, d := range g.Duplicates {
		if d.Same {
			continue
		}
		again := d.Again.Metadata()
		if d.Again == d.Resolved {
			stderrLine(streams, "%s: warning: %s is defined again; this definition is used over the one at %s, as applying them in order leaves it",
				sourceOf(again), again.Ref, sourceOf(d.First.Metadata()))
			continue
		}
		stderrLine(streams, "%s: warning: %s is defined again; the definition at %s is used, as applying them in order leaves it",
			sourceOf(again), again.Ref, sourceOf(d.Resolved.Metadata()))
	}
	return g, others, len(in.Errors) > 0
}

// stderrLine prints one line on stderr, escaped (cli.Escape): it names
// files and objects, and quotes messages, from the inputs.
func stderrLine(streams *cli.IOStreams, format string, args ...any) {
	fmt.Fprintln(streams.ErrOut, cli.Escape(fmt.Sprintf(format, args...)))
}

// sourceOf renders where an object was written: "file:line:col".
func sourceOf(m *resolve.Meta) string {
	return fmt.Sprintf("%s:%d:%d", m.Source.File, m.Source.Pos.Line, m.Source.Pos.Col)
}
