package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
)

type releasesOptions struct{ reportOptions }

func newReleasesCmd(streams *cli.IOStreams, runF func(*releasesOptions) error) *cobra.Command {
	opts := &releasesOptions{reportOptions{IO: streams}}
	cmd := &cobra.Command{
		Use:   "releases [PATH ...|-]",
		Short: "Report the Gateway API releases and channels whose CRDs accept the manifests",
		Long: `Releases reads manifests as check does (default: the current directory;
the .gwlint.yaml found from them upward; Kustomize directories built, Helm
charts rendered) and validates every Gateway API object against the CRDs of
every release gwlint knows, in both channels, as the API server of a cluster
running them would: a version the release does not serve, a field it
prunes (with the release that added it), a value outside its enums, a CEL
rule it has.

It prints which releases accept every manifest, the oldest of them, and
what stops the release before it and any newer one that refuses
something. What every release refuses is left out of the table and
counted apart: gwlint check reports it.

Exit status: 0, or 2 for usage errors and manifests that could not be read.`,
		Example: `  gwlint releases deploy/
  gwlint releases -o json . | jq -r '.oldest.release'`,
		RunE: cli.RunE(opts, func(_ *cobra.Command, args []string) error {
			return opts.complete(args, formatText, formatJSON)
		}, runF, runReleases),
	}
	opts.addFlags(cmd, "text or json")
	return cmd
}

// releasesReport is the JSON output of gwlint releases.
type releasesReport struct {
	Version string `json:"version"`
	// Oldest is the oldest release and channel whose CRDs accept every
	// manifest (the standard channel when both do); nil when none does.
	Oldest *releaseChannel `json:"oldest"`
	// Releases are every release and channel, newest first, with what
	// each refuses that some other one accepts.
	Releases []releaseVerdict `json:"releases"`
	// EveryRelease is what the CRDs of every release of the channel
	// refuse: errors whatever the cluster runs.
	EveryRelease []refusal `json:"everyRelease"`
}

type releaseChannel struct {
	Release string `json:"release"`
	Channel string `json:"channel"`
}

type releaseVerdict struct {
	releaseChannel
	Valid   bool      `json:"valid"`
	Refused []refusal `json:"refused"`
}

// refusal is one thing a release's CRDs refuse or prune in an object.
type refusal struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Object  string `json:"object"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (r refusal) String() string {
	return fmt.Sprintf("%s:%d:%d: %s %s: %s", r.File, r.Line, r.Column, r.Object, r.Path, r.Message)
}

// compared are the release and channel pairs gwlint releases validates
// against, newest release first, the standard channel first.
func compared() []crd.CRDs {
	var out []crd.CRDs
	releases := crd.Releases()
	for i := len(releases) - 1; i >= 0; i-- {
		out = append(out, crd.CRDs{Release: releases[i], Channel: crd.Standard}, crd.CRDs{Release: releases[i], Channel: crd.Experimental})
	}
	return out
}

func runReleases(opts *releasesOptions) error {
	crds := compared()
	in, _, err := opts.load(resolve.Options{CompareCRDs: crds})
	if err != nil {
		return err
	}
	report := newReleasesReport(in, crds)
	if opts.Output == formatJSON {
		err = cli.WriteJSON(opts.IO.Out, report)
	} else {
		err = report.writeText(opts.IO.Out)
	}
	return finish(in, err)
}

// newReleasesReport sorts what each of crds refuses in the objects read
// into what every release of a channel refuses and what only some do.
func newReleasesReport(in *resolve.Inputs, crds []crd.CRDs) *releasesReport {
	r := &releasesReport{Version: schemaVersion, EveryRelease: []refusal{}}
	for _, c := range crds {
		r.Releases = append(r.Releases, releaseVerdict{releaseChannel: releaseChannel{c.Release.String(), c.Channel.String()}, Valid: true, Refused: []refusal{}})
	}
	for _, obj := range in.Objects {
		verdicts := in.Compared[obj]
		if verdicts == nil {
			continue
		}
		m := obj.Metadata()
		place := func(v crd.Violation) refusal {
			pos := m.Position(v.Path)
			return refusal{File: m.Source.File, Line: pos.Line, Column: pos.Col, Object: m.Ref.String(), Path: v.Path, Message: v.Message}
		}
		for _, ch := range []crd.Channel{crd.Standard, crd.Experimental} {
			// What every release of the channel refuses is no release's
			// to answer for.
			var every []crd.Violation
			first := true
			for i, c := range crds {
				if c.Channel != ch {
					continue
				}
				if first {
					every, first = slices.Clone(verdicts[i]), false
					continue
				}
				every = slices.DeleteFunc(every, func(v crd.Violation) bool {
					return !slices.ContainsFunc(verdicts[i], func(e crd.Violation) bool { return sameRefusal(v, e) })
				})
			}
			for i, c := range crds {
				if c.Channel != ch {
					continue
				}
				for _, v := range verdicts[i] {
					if !slices.ContainsFunc(every, func(e crd.Violation) bool { return sameRefusal(v, e) }) {
						r.Releases[i].Valid = false
						r.Releases[i].Refused = append(r.Releases[i].Refused, place(v))
					}
				}
			}
			if ch == crd.Standard {
				for _, v := range every {
					r.EveryRelease = append(r.EveryRelease, place(v))
				}
			}
		}
	}
	// The oldest release that either channel accepts everything in, the
	// standard channel when both do.
	for i := len(r.Releases) - 1; i >= 0; i-- {
		if v := &r.Releases[i]; v.Valid && (r.Oldest == nil || v.Release != r.Oldest.Release) {
			r.Oldest = &v.releaseChannel
			if i > 0 && r.Releases[i-1].Valid && r.Releases[i-1].Release == v.Release {
				r.Oldest = &r.Releases[i-1].releaseChannel
			}
			break
		}
	}
	return r
}

// maxShown is how many refusals the text output shows for one release.
const maxShown = 10

func (r *releasesReport) writeText(w io.Writer) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RELEASE\tSTANDARD\tEXPERIMENTAL")
	for i := 0; i+1 < len(r.Releases); i += 2 {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Releases[i].Release, r.Releases[i].verdict(), r.Releases[i+1].verdict())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b.WriteString("\n")
	if r.Oldest == nil {
		b.WriteString("No release gwlint knows accepts every manifest.\n")
	} else {
		fmt.Fprintf(&b, "Oldest release whose CRDs accept every manifest: %s (%s channel).\n", r.Oldest.Release, r.Oldest.Channel)
	}
	for i, v := range r.Releases {
		if v.Valid || !r.worthShowing(i) {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%s channel) refuses or prunes:\n", v.Release, v.Channel)
		groups := groupRefusals(v.Refused)
		for k, g := range groups {
			if k == maxShown {
				fmt.Fprintf(&b, "  ... and %d more (-o json lists them all)\n", len(groups)-maxShown)
				break
			}
			if len(g) == 1 {
				fmt.Fprintf(&b, "  %s\n", cli.Escape(g[0].String()))
				continue
			}
			fmt.Fprintf(&b, "  %s: %s\n    in %d objects, the first %s:%d:%d %s\n", cli.Escape(resolve.StripIndices(g[0].Path)), cli.Escape(g[0].Message),
				len(g), cli.Escape(g[0].File), g[0].Line, g[0].Column, cli.Escape(g[0].Object))
		}
	}
	if n := len(r.EveryRelease); n > 0 {
		fmt.Fprintf(&b, "\n%s every release refuses (gwlint check reports %s).\n", plural(n, "error", "errors"), map[bool]string{true: "it", false: "them"}[n == 1])
	}
	_, err := w.Write(b.Bytes())
	return err
}

// groupRefusals groups the refusals that say the same of the same field
// (indices aside), in the order of their first: a release that does not
// serve ReferenceGrant v1 refuses each of them alike.
func groupRefusals(refused []refusal) [][]refusal {
	var groups [][]refusal
	at := map[string]int{}
	for _, r := range refused {
		key := resolve.StripIndices(r.Path) + "\x00" + r.Message
		i, ok := at[key]
		if !ok {
			i, at[key] = len(groups), len(groups)
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	return groups
}

// worthShowing says whether the text output details release i. Only one
// channel is detailed: the oldest release's (the newest standard one's
// when nothing accepts everything), and in it every release newer than
// the oldest that refuses something (what stops an upgrade) and the
// newest older one that does (what stops going back).
func (r *releasesReport) worthShowing(i int) bool {
	if r.Oldest == nil {
		return i == 0
	}
	if r.Releases[i].Channel != r.Oldest.Channel {
		return false
	}
	oldest := slices.IndexFunc(r.Releases, func(o releaseVerdict) bool { return o.releaseChannel == *r.Oldest })
	if i < oldest {
		return true
	}
	next := slices.IndexFunc(r.Releases[oldest+1:], func(o releaseVerdict) bool { return o.Channel == r.Oldest.Channel && !o.Valid })
	return next >= 0 && oldest+1+next == i
}

func (v releaseVerdict) verdict() string {
	if v.Valid {
		return "valid"
	}
	objects := map[string]bool{}
	for _, ref := range v.Refused {
		objects[ref.Object] = true
	}
	return plural(len(objects), "object", "objects") + " refused"
}

// sameRefusal says whether two releases refuse the same thing: the same
// field, the same way (the messages differ in the allowed values, the
// release named).
func sameRefusal(a, b crd.Violation) bool { return a.Path == b.Path && a.Type == b.Type }
