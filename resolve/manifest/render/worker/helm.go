package worker

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/strvals"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// renderChart renders a chart inside a worker: everything that runs the
// chart's templates or reads its files happens here.
func renderChart(req job.Request, b manifest.Boundary) job.Response {
	dir := req.Dir
	chartFile := filepath.Join(dir, job.ChartFile)
	chrt, err := loadChart(dir, b)
	if err != nil {
		return job.Response{Errors: []*manifest.ReadError{job.AsReadError(chartFile, "helm: ", err)}}
	}
	if missing := missingDependencies(chrt); len(missing) > 0 {
		// Not rendered, as helm template refuses it: without them, the
		// chart's references into them would be findings of their own.
		// An umbrella chart whose dependencies are fetched at deploy time
		// (Argo CD and Flux run helm dependency build) is common: what
		// it creates is unknown, not wrong.
		resp := job.Failed(chartFile, "helm: the chart's dependencies "+strings.Join(missing, ", ")+
			" are not in its charts/ directory: what it creates is unknown (run `helm dependency build` to have it checked)")
		resp.Errors[0].Unknown = true
		return resp
	}
	vals := map[string]any{}
	for i, f := range req.ValueFiles {
		if i < len(req.TargetPaths) && req.TargetPaths[i].Path != "" {
			if err := setAtPath(vals, req.TargetPaths[i], string(req.Values[i])); err != nil {
				return job.Failed(f, fmt.Sprintf("helm values: targetPath %s: %v", req.TargetPaths[i].Path, err))
			}
			continue
		}
		v, err := chartutil.ReadValues(req.Values[i])
		if err != nil {
			return job.Failed(f, "helm values: "+err.Error())
		}
		vals = chartutil.MergeTables(v, vals)
	}
	for _, p := range req.Set {
		set, value := strvals.ParseInto, escapeCommas(p.Value)
		if p.ForceString {
			set = strvals.ParseIntoString
		}
		if err := set(escapeCommas(p.Name)+"="+value, vals); err != nil {
			return job.Failed(chartFile, fmt.Sprintf("helm: parameter %s: %v", p.Name, err))
		}
	}
	if err := chartutil.ProcessDependenciesWithMerge(chrt, vals); err != nil {
		return job.Failed(chartFile, "helm: "+err.Error())
	}
	caps := chartutil.DefaultCapabilities.Copy()
	caps.APIVersions = append(slices.Clone(caps.APIVersions), req.APIVersions...)
	// values.schema.json is not checked: Helm's validator follows a
	// schema's $ref to any URL or file, which would fetch, or read outside
	// the boundary, at the chart's word.
	top, err := chartutil.ToRenderValuesWithSchemaValidation(chrt, vals,
		chartutil.ReleaseOptions{Name: cmp.Or(req.ReleaseName, job.ReleaseName), Namespace: req.Namespace, Revision: 1, IsInstall: true}, caps, true)
	if err != nil {
		return job.Failed(chartFile, "helm: "+err.Error())
	}
	out, err := engine.Render(chrt, top)
	if err != nil {
		e := templateError(dir, chartFile, err)
		alone := req.ReleaseName == job.ReleaseName && len(req.Values) == 0 && len(req.Set) == 0
		switch {
		case alone && callsRequired(chrt, err):
			// Rendered alone, with the defaults only: a value the chart
			// asks its user for is missing, as it is until someone
			// installs it with values.
			e.Unknown = true
			e.Msg = "the chart needs a value that its defaults leave out (" + strings.TrimPrefix(e.Msg, "helm template: ") +
				"): rendered with its defaults alone, what it creates is unknown"
		case alone && len(chrt.Values) == 0 && strings.Contains(err.Error(), "at <.Values."):
			// A chart without default values is made to be given some
			// (justin8/home-cluster's app of apps, installed with
			// global-values.yaml): rendered without any, it reads values
			// that are not there.
			e.Unknown = true
			e.Msg = "the chart has no default values and reads values it is given (" + strings.TrimPrefix(e.Msg, "helm template: ") +
				"): rendered alone, without any, what it creates is unknown"
		}
		return job.Response{Errors: []*manifest.ReadError{e}}
	}
	if req.CRDs {
		for _, crd := range chrt.CRDObjects() {
			out[filepath.ToSlash(crd.Filename)] = string(crd.File.Data)
		}
	}
	var resp job.Response
	size := 0
	for name, text := range out {
		base := path.Base(name)
		if base == "NOTES.txt" || strings.HasPrefix(base, "_") || strings.TrimSpace(text) == "" {
			continue
		}
		if size += len(text); size > req.Output {
			return job.Failed(chartFile, fmt.Sprintf("helm template: the chart renders more than %d MiB, the limit of one render", req.Output>>20))
		}
		resp.Templates = append(resp.Templates, job.Template{Name: name, Text: gluedSeparator.ReplaceAllString(text, "---\n$1")})
	}
	slices.SortFunc(resp.Templates, func(a, b job.Template) int { return strings.Compare(a.Name, b.Name) })
	return resp
}

// gluedSeparator finds a document separator that Helm splits a template's
// output at (its SplitManifests: --- at the start of a line) but YAML
// does not, with more on its line: "---# comment" when {{- if ... -}}
// trimmed the line break after ---, as in cert-manager's rbac.yaml.
var gluedSeparator = regexp.MustCompile(`(?m)^---[ \t]*(\S)`)

// Helm's template errors name the template and a line: "template:
// chart/templates/x.yaml:12:20: executing ..." when executing, "execution
// error at (chart/templates/x.yaml:8:23): ..." from required and fail,
// "parse error at (chart/templates/x.yaml:5): ..." when parsing.
var (
	execError  = regexp.MustCompile(`template: ([^:\s]+):(\d+):(\d+): `)
	failError  = regexp.MustCompile(`execution error at \(([^:\s]+):(\d+):(\d+)\): `)
	parseError = regexp.MustCompile(`parse error at \(([^:\s]+):(\d+)\): `)
)

// templateError places a render error at the template line it names, else
// at Chart.yaml.
func templateError(dir, chartFile string, err error) *manifest.ReadError {
	msg := err.Error()
	for _, re := range []*regexp.Regexp{failError, execError, parseError} {
		m := re.FindStringSubmatchIndex(msg)
		if m == nil {
			continue
		}
		e := &manifest.ReadError{File: job.TemplateFile(dir, msg[m[2]:m[3]]), Msg: "helm template: " + msg[m[1]:]}
		e.Pos.Line, _ = strconv.Atoi(msg[m[4]:m[5]])
		if len(m) > 6 {
			e.Pos.Col, _ = strconv.Atoi(msg[m[6]:m[7]])
		}
		return e
	}
	return &manifest.ReadError{File: chartFile, Msg: "helm template: " + msg}
}

// callsRequired reports whether the action that failed a render calls
// required: Helm words its error as fail's, "execution error at (NAME:
// LINE:COL)", and the chart as loaded says which it was. Pipelines
// (.Values.x | required "...") are not recognised: an error.
func callsRequired(chrt *chart.Chart, err error) bool {
	m := failError.FindStringSubmatch(err.Error())
	if m == nil {
		return false
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	lines := strings.Split(string(templateData(chrt, m[1])), "\n")
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1]) {
		return false
	}
	// The column is the action's, or the call's within it.
	rest := strings.TrimLeft(lines[line-1][col-1:], " \t{-(")
	return strings.HasPrefix(rest, "required ")
}

// templateData is the text of the template Helm names name (its chart's
// full path and the template's), in c or its dependencies.
func templateData(c *chart.Chart, name string) []byte {
	for _, t := range c.Templates {
		if path.Join(c.ChartFullPath(), t.Name) == name {
			return t.Data
		}
	}
	for _, d := range c.Dependencies() {
		if data := templateData(d, name); data != nil {
			return data
		}
	}
	return nil
}

// missingDependencies names the dependencies Chart.yaml declares that are
// not in the chart's charts/ directory, as Helm's CheckDependencies does.
func missingDependencies(chrt *chart.Chart) []string {
	var missing []string
	for _, want := range chrt.Metadata.Dependencies {
		if !slices.ContainsFunc(chrt.Dependencies(), func(d *chart.Chart) bool { return d.Name() == want.Name }) {
			missing = append(missing, want.Name)
		}
	}
	return missing
}

// escapeCommas escapes the commas of a parameter's name or value, which
// --set would read as separating values, as Argo CD does
// (cleanSetParameters): a value written as a list, {a,b}, keeps them, and so
// does a comma already escaped.
func escapeCommas(s string) string {
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if r == ',' && (i == 0 || s[i-1] != '\\') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// setAtPath sets value at a Flux valuesFrom's targetPath, as Flux's
// chartutil does (ReplacePathValue): with Helm's --set parser, typed, or a
// string when the value is quoted; literal, verbatim, its --set syntax
// escaped (ReplacePathLiteralValue).
func setAtPath(vals map[string]any, at job.TargetPath, value string) error {
	if at.Literal {
		return strvals.ParseIntoString(at.Path+"="+literalEscaper.Replace(value), vals)
	}
	single := strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'")
	double := strings.HasPrefix(value, `"`) && strings.HasSuffix(value, `"`)
	if single || double {
		return strvals.ParseIntoString(at.Path+"="+strings.Trim(value, `'"`), vals)
	}
	return strvals.ParseInto(at.Path+"="+value, vals)
}

// literalEscaper escapes what --set reads as syntax, as Flux's does.
var literalEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `[`, `\[`, `]`, `\]`, `{`, `\{`, `}`, `\}`)
