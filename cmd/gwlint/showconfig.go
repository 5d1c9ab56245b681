package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// Sources of a setting, besides the configuration file's path.
const (
	sourceDefault = "default"
	sourceFlag    = "flag"
)

// jsonConfig is the JSON output of gwlint check --show-config, versioned
// by schemaVersion like the findings.
type jsonConfig struct {
	Version string `json:"version"`
	// ConfigFile is the configuration file in effect, "" for none.
	ConfigFile string        `json:"configFile"`
	Settings   []jsonSetting `json:"settings"`
}

// jsonSetting is one key of .gwlint.yaml, or one rule as rules.ID.
type jsonSetting struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
	// Source is "default", "flag" (with Flag) or the configuration file.
	Source string `json:"source"`
	Flag   string `json:"flag,omitempty"`
}

// effectiveConfig lists every configuration key with the value in effect
// and where it came from, sorted by key, the rules as rules.ID among them.
func (o *checkOptions) effectiveConfig(s *settings) jsonConfig {
	cfg := s.config
	out := jsonConfig{Version: schemaVersion, ConfigFile: cfg.File}
	add := func(key string, value any, inFile bool, flag string, flagSet bool) {
		st := jsonSetting{Key: key, Value: value, Source: sourceDefault}
		switch {
		case flagSet:
			st.Source, st.Flag = sourceFlag, "--"+flag
		case inFile:
			st.Source = cfg.File
		}
		out.Settings = append(out.Settings, st)
	}
	list := func(l []string) []string {
		if l == nil {
			return []string{}
		}
		return l
	}
	channel := o.Channel
	if !o.channelSet && cfg.Channel != "" {
		channel = cfg.Channel
	}
	add("channel", channel, cfg.Channel != "", "channel", o.channelSet)
	charts := cfg.Charts
	if charts == nil {
		charts = map[string]string{}
	}
	add("charts", charts, cfg.Charts != nil, "", false)
	add("exclude", list(cfg.Exclude), cfg.Exclude != nil, "", false)
	add("failOn", s.failOn.String(), cfg.FailOn != nil, "fail-on", o.failOnSet)
	impl := ""
	if s.resolve.Implementation != nil {
		impl = o.Implementation.Name
		if !o.implementationSet {
			impl = cfg.Implementation
		}
	}
	// Without a flag or the key, the CRDs among the inputs may choose: the
	// summary line says so.
	add("gatewayAPIVersion", s.resolve.Release.String(), cfg.GatewayAPIVersion != "", "gateway-api-version", o.releaseSet)
	add("implementation", impl, cfg.Implementation != "", "implementation", o.implementationSet)
	ns := s.resolve.DefaultNamespace
	if ns == "" {
		ns = "default"
	}
	add("namespace", ns, cfg.Namespace != "", "namespace", o.namespaceSet)
	add("ownedNamespaces", list(cfg.OwnedNamespaces), cfg.OwnedNamespaces != nil, "", false)
	enabled := map[string]*lint.Rule{}
	for _, r := range cfg.Rules() {
		enabled[r.ID] = r
	}
	for _, r := range lint.AllRules() {
		if r == lint.InvalidManifest {
			continue // always on
		}
		value := "off"
		if e := enabled[r.ID]; e != nil {
			value = e.Severity.String()
		}
		_, inFile := cfg.RuleSettings[r.ID]
		add("rules."+r.ID, value, inFile, "", false)
	}
	add("strictRefs", s.resolve.StrictRefs, cfg.StrictRefs != nil, "strict-refs", o.strictRefsSet)
	var without []string
	for _, f := range s.resolve.WithoutFeatures {
		without = append(without, string(f))
	}
	add("withoutFeatures", list(without), cfg.WithoutFeatures != nil, "without-features", o.withoutFeaturesSet)
	return out
}

// writeConfig prints the effective configuration as text or JSON. The
// text escapes the file's path and values (cli.Escape): a pull request
// can write the configuration file.
func writeConfig(w io.Writer, format string, c jsonConfig) error {
	if format == formatJSON {
		return cli.WriteJSON(w, c)
	}
	file := c.ConfigFile
	if file == "" {
		file = "none"
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "configuration file: %s\n\nKEY\tVALUE\tSOURCE\n", cli.Escape(file))
	for _, st := range c.Settings {
		value, err := json.Marshal(st.Value)
		if err != nil {
			return err
		}
		v := string(value)
		if s, ok := st.Value.(string); ok && s != "" {
			v = s // quoted only when empty
		}
		src := st.Source
		if st.Flag != "" {
			src += " " + st.Flag
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", st.Key, cli.Escape(v), cli.Escape(src))
	}
	return tw.Flush()
}
