package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/profile"
)

// ConfigFileName is the configuration file gwlint looks for.
const ConfigFileName = ".gwlint.yaml"

// Config is a .gwlint.yaml file:
//
//	rules:                    # turn rules off or change their severity
//	  listener-no-routes: off
//	  referencegrant-unused: warning
//	exclude:                  # paths not read, relative to the file's directory
//	- "charts/**"
//	- "**/kustomization.yaml"
//	namespace: apps           # like --namespace
//	strictRefs: true          # like --strict-refs
//	ownedNamespaces:          # the inputs hold every object of these
//	- shop
//	- "team-*"
//	channel: experimental     # like --channel
//	gatewayAPIVersion: v1.2.0 # like --gateway-api-version
//	failOn: warning           # like --fail-on
//	implementation: istio     # like --implementation
//	withoutFeatures: [HTTPRouteCORS]  # like --without-features
//	charts:                   # local copies of charts the repository installs
//	  oci://ghcr.io/bjw-s-labs/helm/app-template: vendor/app-template
//
// The zero Config (and a nil *Config) is the defaults.
type Config struct {
	// File is where the configuration was read from; empty for the
	// defaults. Exclude patterns are relative to its directory.
	File string
	// RuleSettings turn rules off or change their severity, by rule id.
	RuleSettings map[string]RuleSetting
	// Exclude holds the exclude patterns as written.
	Exclude    []string
	Namespace  string
	StrictRefs *bool
	// OwnedNamespaces are the namespaces (path.Match patterns) whose objects
	// the inputs hold all of (resolve.Options.OwnedNamespaces).
	OwnedNamespaces []string
	FailOn          *Severity
	// Channel is the Gateway API release channel whose CRDs are installed:
	// "standard" or "experimental"; empty for the default.
	Channel string
	// GatewayAPIVersion is the Gateway API release whose CRDs are
	// installed (crd.ParseRelease); empty for the default.
	GatewayAPIVersion string
	// Implementation names the profile every Gateway is judged by,
	// NAME[@VERSION] (profile.Lookup); empty lets GatewayClasses choose.
	Implementation string
	// WithoutFeatures are features removed from every profile.
	WithoutFeatures []string
	// Charts map the charts a HelmRelease installs from outside the
	// repository (an OCI or Helm repository URL and chart name, or the
	// chart's name alone) to local copies, directories relative to the
	// file's (see ChartDirs).
	Charts map[string]string

	exclude [][]string // Exclude, split into path segments
}

// RuleSetting is the value of a rule in the rules map: off, or a severity.
type RuleSetting struct {
	Off      bool
	Severity Severity
}

func (s RuleSetting) String() string {
	if s.Off {
		return "off"
	}
	return s.Severity.String()
}

// rawConfig is the file's schema; Config is what it means.
type rawConfig struct {
	Rules      map[string]string `json:"rules,omitempty"`
	Exclude    []string          `json:"exclude,omitempty"`
	Namespace  string            `json:"namespace,omitempty"`
	StrictRefs *bool             `json:"strictRefs,omitempty"`
	FailOn     string            `json:"failOn,omitempty"`
	Channel    string            `json:"channel,omitempty"`
	// GatewayAPIVersion: see Config.
	GatewayAPIVersion string `json:"gatewayAPIVersion,omitempty"`
	// OwnedNamespaces: see Config.
	OwnedNamespaces []string `json:"ownedNamespaces,omitempty"`
	Implementation  string   `json:"implementation,omitempty"`
	WithoutFeatures []string `json:"withoutFeatures,omitempty"`
	// Charts: see Config.
	Charts map[string]string `json:"charts,omitempty"`
}

// configKeys are the keys of rawConfig, sorted, for messages.
var configKeys = []string{"channel", "charts", "exclude", "failOn", "gatewayAPIVersion", "implementation", "namespace", "ownedNamespaces", "rules", "strictRefs", "withoutFeatures"}

// ConfigError is a problem with a configuration file, at a line and column
// when known.
type ConfigError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *ConfigError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// ParseConfig reads a .gwlint.yaml document; name is the file's name for
// messages and for resolving exclude patterns. Unknown keys, unknown rule
// ids and invalid values are errors that name the line. An empty document
// is the defaults.
func ParseConfig(data []byte, name string) (*Config, error) {
	errAt := func(n *yaml3.Node, format string, args ...any) error {
		e := &ConfigError{File: name, Msg: fmt.Sprintf(format, args...)}
		if n != nil {
			e.Line, e.Col = n.Line, n.Column
		}
		return e
	}

	// The node tree gives every problem a line; sigs.k8s.io/yaml, which
	// does not, then decodes what has been checked.
	var doc yaml3.Node
	dec := yaml3.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return nil, yamlError(name, err)
	}
	// A second document would be ignored, and whatever it says with it;
	// an empty one (a trailing ---) says nothing.
	for {
		var more yaml3.Node
		err := dec.Decode(&more)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, yamlError(name, err)
		}
		if n := more.Content[0]; n.Kind != yaml3.ScalarNode || n.Tag != "!!null" {
			return nil, errAt(n, "a second YAML document: the configuration is one document")
		}
	}
	cfg := &Config{File: name}
	if len(doc.Content) == 0 {
		return cfg, nil // empty, or only comments
	}
	root := doc.Content[0]
	if root.Kind == yaml3.ScalarNode && root.Tag == "!!null" {
		return cfg, nil
	}
	if root.Kind != yaml3.MappingNode {
		return nil, errAt(root, "the configuration must be a mapping of %s", strings.Join(configKeys, ", "))
	}
	keys, nodes, err := mappingKeys(root, errAt)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		if !slices.Contains(configKeys, k.Value) {
			return nil, errAt(k, "unknown key %q (known keys: %s)", k.Value, strings.Join(configKeys, ", "))
		}
	}
	var ruleKeys []*yaml3.Node
	var ruleNodes map[string][2]*yaml3.Node
	if kv, ok := nodes["rules"]; ok {
		if kv[1].Kind != yaml3.MappingNode && kv[1].Tag != "!!null" {
			return nil, errAt(kv[1], "rules must be a mapping of rule id to off, error, warning or info")
		}
		if ruleKeys, ruleNodes, err = mappingKeys(kv[1], errAt); err != nil {
			return nil, err
		}
	}
	if kv, ok := nodes["exclude"]; ok && kv[1].Kind != yaml3.SequenceNode && kv[1].Tag != "!!null" {
		return nil, errAt(kv[1], `exclude must be a list of path patterns, such as ["charts/**"]`)
	}

	var raw rawConfig
	if err := yaml.UnmarshalStrict(data, &raw); err != nil {
		return nil, decodeError(name, root, err)
	}

	for _, k := range ruleKeys { // in file order, so the first problem is reported
		id, kv := k.Value, ruleNodes[k.Value]
		r := LookupAny(id)
		switch {
		case r == nil:
			return nil, errAt(k, "unknown rule %q%s (see gwlint rules)", id, didYouMean(id, AllRules()))
		case r == InvalidManifest:
			return nil, errAt(k, "%s cannot be configured: exclude the files instead", id)
		}
		setting, err := parseRuleSetting(raw.Rules[id])
		if err != nil {
			return nil, errAt(kv[1], "rule %s: %v", id, err)
		}
		if cfg.RuleSettings == nil {
			cfg.RuleSettings = map[string]RuleSetting{}
		}
		cfg.RuleSettings[id] = setting
	}
	seq := nodes["exclude"][1]
	for i, pattern := range raw.Exclude {
		segs, err := compilePattern(pattern)
		if err != nil {
			return nil, errAt(seq.Content[i], "exclude pattern %q: %v", pattern, err)
		}
		cfg.Exclude = append(cfg.Exclude, pattern)
		cfg.exclude = append(cfg.exclude, segs)
	}
	cfg.Namespace = raw.Namespace
	cfg.StrictRefs = raw.StrictRefs
	if seq, ok := nodes["ownedNamespaces"]; ok {
		for i, pattern := range raw.OwnedNamespaces {
			if _, err := path.Match(pattern, ""); err != nil || pattern == "" {
				return nil, errAt(seq[1].Content[i], "ownedNamespaces: %q is not a namespace name or pattern", pattern)
			}
		}
		cfg.OwnedNamespaces = raw.OwnedNamespaces
	}
	if kv, ok := nodes["channel"]; ok {
		if _, err := crd.ParseChannel(raw.Channel); err != nil {
			return nil, errAt(kv[1], "channel: %v", err)
		}
		cfg.Channel = raw.Channel
	}
	if kv, ok := nodes["gatewayAPIVersion"]; ok {
		if _, err := crd.ParseRelease(raw.GatewayAPIVersion); err != nil {
			return nil, errAt(kv[1], "gatewayAPIVersion: %v", err)
		}
		cfg.GatewayAPIVersion = raw.GatewayAPIVersion
	}
	if kv, ok := nodes["implementation"]; ok {
		if _, err := profile.Lookup(raw.Implementation); err != nil {
			return nil, errAt(kv[1], "implementation: %v", err)
		}
		cfg.Implementation = raw.Implementation
	}
	if kv, ok := nodes["withoutFeatures"]; ok {
		if _, err := profile.ParseFeatures(raw.WithoutFeatures); err != nil {
			return nil, errAt(kv[1], "withoutFeatures: %v", err)
		}
		cfg.WithoutFeatures = raw.WithoutFeatures
	}
	if kv, ok := nodes["charts"]; ok {
		if kv[1].Kind != yaml3.MappingNode && kv[1].Tag != "!!null" {
			return nil, errAt(kv[1], "charts must be a mapping of chart reference to a directory")
		}
		for ref, dir := range raw.Charts {
			if ref == "" || dir == "" {
				return nil, errAt(kv[1], "charts: %q: a chart reference and a directory are needed", ref)
			}
		}
		cfg.Charts = raw.Charts
	}
	if kv, ok := nodes["failOn"]; ok {
		s, err := ParseSeverity(raw.FailOn)
		if err != nil {
			return nil, errAt(kv[1], "failOn: %v", err)
		}
		cfg.FailOn = &s
	}
	return cfg, nil
}

// mappingKeys returns a mapping's keys in order and its key and value
// nodes by key, refusing duplicate and non-string keys.
func mappingKeys(m *yaml3.Node, errAt func(*yaml3.Node, string, ...any) error) ([]*yaml3.Node, map[string][2]*yaml3.Node, error) {
	var keys []*yaml3.Node
	byKey := map[string][2]*yaml3.Node{}
	if m.Kind != yaml3.MappingNode {
		return nil, byKey, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml3.ScalarNode {
			return nil, nil, errAt(k, "keys must be strings")
		}
		if k.Value == "<<" {
			return nil, nil, errAt(k, "merge keys are not supported here")
		}
		if prev, dup := byKey[k.Value]; dup {
			return nil, nil, errAt(k, "%q is already set at line %d", k.Value, prev[0].Line)
		}
		keys = append(keys, k)
		byKey[k.Value] = [2]*yaml3.Node{k, v}
	}
	return keys, byKey, nil
}

// decodeError explains a value of the wrong type at its line, in the
// file's terms rather than Go's.
func decodeError(name string, root *yaml3.Node, err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		msg := err.Error()
		for _, prefix := range []string{"error unmarshaling JSON: ", "while decoding JSON: ", "json: "} {
			msg = strings.TrimPrefix(msg, prefix)
		}
		return &ConfigError{File: name, Msg: msg}
	}
	// Walk the field path as far as the file has it.
	n := root
	for _, seg := range strings.Split(te.Field, ".") {
		_, byKey, _ := mappingKeys(n, func(*yaml3.Node, string, ...any) error { return nil })
		kv, ok := byKey[seg]
		if !ok {
			break
		}
		n = kv[1]
	}
	want := map[reflect.Kind]string{
		reflect.String: "a string", reflect.Bool: "true or false",
		reflect.Slice: "a list", reflect.Map: "a mapping",
	}[te.Type.Kind()]
	if want == "" {
		want = te.Type.String()
	}
	return &ConfigError{File: name, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf("%s must be %s, not %s", te.Field, want, te.Value)}
}

// parseRuleSetting reads off, error, warning or info. YAML 1.1, which
// sigs.k8s.io/yaml speaks, reads an unquoted off as false.
func parseRuleSetting(v string) (RuleSetting, error) {
	if v == "off" || v == "false" {
		return RuleSetting{Off: true}, nil
	}
	s, err := ParseSeverity(v)
	if err != nil {
		return RuleSetting{}, fmt.Errorf("unknown setting %q (want off, error, warning or info)", v)
	}
	return RuleSetting{Severity: s}, nil
}

// yamlError positions a YAML syntax error ("yaml: line 3: ...").
func yamlError(name string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &ConfigError{File: name, Msg: msg}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, text, ok := strings.Cut(rest, ": "); ok {
			var line int
			if _, err := fmt.Sscanf(num, "%d", &line); err == nil {
				e.Line, e.Msg = line, text
			}
		}
	}
	return e
}

// LoadConfig reads and parses the configuration file at name.
func LoadConfig(name string) (*Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &ConfigError{File: name, Msg: err.Error()}
	}
	return ParseConfig(data, name)
}

// FindConfig looks for .gwlint.yaml in dir and its parents, stopping at the
// file system root or at a directory that holds .git (the top of a
// repository), and returns its path, or "" when there is none.
func FindConfig(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		candidate := filepath.Join(dir, ConfigFileName)
		switch info, err := os.Stat(candidate); {
		case err == nil && !info.IsDir():
			return candidate, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", err
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Rules returns the rules in effect: every rule of Rules and MetaRules
// (except invalid-manifest, which is always on) that is not turned off,
// with its configured severity, sorted by id. They are copies: the
// package's rule values never change.
func (c *Config) Rules() []*Rule {
	var out []*Rule
	for _, r := range configurableRules() {
		cp := *r
		if c != nil {
			if s, ok := c.RuleSettings[r.ID]; ok {
				if s.Off {
					continue
				}
				cp.Severity = s.Severity
			}
		}
		out = append(out, &cp)
	}
	return out
}

func configurableRules() []*Rule {
	var out []*Rule
	for _, r := range AllRules() {
		if r != InvalidManifest {
			out = append(out, r)
		}
	}
	return out
}

// Excludes reports whether an exclude pattern matches file (a path as given
// on the command line, or found by walking a directory) or one of its
// parent directories. Patterns are relative to the configuration file's
// directory, use / as separator, and match with path.Match per segment,
// where a segment ** matches any number of directories: "charts/**",
// "**/kustomization.yaml", "generated".
func (c *Config) Excludes(file string) bool {
	if c == nil || len(c.exclude) == 0 || file == "-" {
		return false
	}
	rel := file
	if c.File != "" {
		base, err1 := filepath.Abs(filepath.Dir(c.File))
		abs, err2 := filepath.Abs(file)
		if err1 != nil || err2 != nil {
			return false
		}
		if rel, err1 = filepath.Rel(base, abs); err1 != nil {
			return false
		}
	}
	segs := strings.Split(filepath.ToSlash(filepath.Clean(rel)), "/")
	for _, p := range c.exclude {
		// The file itself, or a directory above it.
		for n := len(segs); n > 0; n-- {
			if matchSegments(p, segs[:n]) {
				return true
			}
		}
	}
	return false
}

// compilePattern splits an exclude pattern into segments and checks them.
func compilePattern(pattern string) ([]string, error) {
	p := strings.Trim(pattern, "/")
	if p == "" {
		return nil, errors.New("empty pattern")
	}
	segs := strings.Split(path.Clean(p), "/")
	for _, s := range segs {
		if s == ".." {
			return nil, errors.New(`patterns cannot leave the configuration's directory ("..")`)
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, err
		}
	}
	return segs, nil
}

// matchSegments matches path segments against pattern segments, where "**"
// matches zero or more segments.
func matchSegments(pattern, segs []string) bool {
	if len(pattern) == 0 {
		return len(segs) == 0
	}
	if pattern[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if matchSegments(pattern[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	ok, _ := path.Match(pattern[0], segs[0])
	return ok && matchSegments(pattern[1:], segs[1:])
}

// FindConfigFor finds the configuration of a run over paths: each path
// (a file, a directory, or - for stdin, which stands for the working
// directory) looks for .gwlint.yaml from its own directory upward, as
// FindConfig does. One run resolves its inputs together, so it has one
// configuration: the one the paths find. Paths that find none share it;
// paths that find different ones are an error naming both, since each
// file's excludes and rule settings would otherwise silently depend on
// which path came first. It returns "" when no path finds one.
func FindConfigFor(paths []string) (string, error) {
	found, foundFor := "", ""
	for _, p := range paths {
		dir := p
		if p == "-" {
			dir = "."
		} else if info, err := os.Stat(p); err != nil || !info.IsDir() {
			// A file, or a path that does not exist (reported when read):
			// its directory.
			dir = filepath.Dir(p)
		}
		cfg, err := FindConfig(dir)
		if err != nil {
			return "", fmt.Errorf("looking for %s from %s: %w", ConfigFileName, p, err)
		}
		switch {
		case cfg == "" || cfg == found:
		case found == "":
			found, foundFor = cfg, p
		default:
			return "", fmt.Errorf("%s is configured by %s but %s by %s: lint them in separate runs, or choose one with --config",
				foundFor, relToWD(found), p, relToWD(cfg))
		}
	}
	return found, nil
}

// relToWD shows an absolute path relative to the working directory, as
// the inputs are shown, when it can.
func relToWD(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil {
			return rel
		}
	}
	return p
}

// ChartDirs is Charts with each directory as the inputs are named:
// relative to the configuration file's directory.
func (c *Config) ChartDirs() map[string]string {
	if c == nil || len(c.Charts) == 0 {
		return nil
	}
	out := make(map[string]string, len(c.Charts))
	for ref, dir := range c.Charts {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(c.File), dir)
		}
		out[ref] = dir
	}
	return out
}
