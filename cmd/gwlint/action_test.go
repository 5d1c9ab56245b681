package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// action is the part of action.yml (the repository's composite GitHub
// Action) that the tests read.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
}

func readAction(t *testing.T) (*action, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a, string(data)
}

// TestActionConsistent: the action is composite, every input it declares
// is used and every input it uses is declared, it installs this
// repository's ./cmd/gwlint with the linker variables main.go has, and
// every flag it passes to gwlint check exists.
func TestActionConsistent(t *testing.T) {
	a, text := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	used := map[string]bool{}
	for _, m := range regexp.MustCompile(`inputs\.([a-z-]+)`).FindAllStringSubmatch(text, -1) {
		used[m[1]] = true
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("input %q is declared but never used", name)
		}
	}
	for name := range used {
		if _, ok := a.Inputs[name]; !ok {
			t.Errorf("input %q is used but not declared", name)
		}
	}
	for _, want := range []string{"paths", "config", "fail-on", "implementation", "sarif"} {
		if _, ok := a.Inputs[want]; !ok {
			t.Errorf("no input %q", want)
		}
	}

	var uses []string
	var script strings.Builder
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			uses = append(uses, s.Uses[:strings.Index(s.Uses, "@")])
		}
		if s.Run != "" && s.Shell != "bash" {
			t.Errorf("step %q: shell %q, want bash", s.Name, s.Shell)
		}
		script.WriteString(s.Run)
	}
	for _, want := range []string{"actions/setup-go", "github/codeql-action/upload-sarif"} {
		if !slices.Contains(uses, want) {
			t.Errorf("no step uses %s", want)
		}
	}
	if !strings.Contains(script.String(), "go install -trimpath -ldflags \"$ldflags\" ./cmd/gwlint ./cmd/gwlint-render\n") {
		t.Error("the action does not go install ./cmd/gwlint and its render worker, ./cmd/gwlint-render")
	}
	for _, v := range regexp.MustCompile(`-X (main\.\w+)=`).FindAllStringSubmatch(script.String(), -1) {
		if !slices.Contains([]string{"main.version", "main.commit", "main.date"}, v[1]) {
			t.Errorf("the action sets %s, which cmd/gwlint/main.go does not declare", v[1])
		}
	}
	// Every --flag the scripts pass to gwlint check is one of its flags.
	check := newCheckCmd(clitest.Discard(), nil)
	for _, m := range regexp.MustCompile(`(?:^|[\s(])--([a-z][a-z-]*)`).FindAllStringSubmatch(script.String(), -1) {
		if m[1] == "noprofile" || m[1] == "norc" {
			continue
		}
		if check.Flags().Lookup(m[1]) == nil {
			t.Errorf("the action passes --%s, which gwlint check does not have", m[1])
		}
	}
}

// TestActionCheckStep runs the check step's script with bash, its inputs
// filled in and a stand-in gwlint that records its arguments, then parses
// each recorded command line with gwlint check itself.
func TestActionCheckStep(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	a, _ := readAction(t)
	i := slices.IndexFunc(a.Runs.Steps, func(s actionStep) bool {
		return s.ID == "check"
	})
	if i < 0 {
		t.Fatal("no step with id check")
	}
	step := a.Runs.Steps[i]

	for _, tt := range []struct {
		name   string
		inputs map[string]string
		code   string // the stand-in's exit status
		want   [][]string
	}{
		{"defaults", nil, "0", [][]string{{"check", "-o", "github", "--", "."}}},
		{"every input", map[string]string{
			"paths": "deploy/ \n apps/a b.yaml", "config": "ci/gwlint.yaml", "fail-on": "warning",
			"implementation": "istio@1.28", "sarif": "true", "sarif-file": "out.sarif",
		}, "1", [][]string{
			{"check", "--config", "ci/gwlint.yaml", "--fail-on", "warning", "--implementation", "istio@1.28", "-o", "github", "--", "deploy/", "apps/a", "b.yaml"},
			{"check", "--config", "ci/gwlint.yaml", "--fail-on", "warning", "--implementation", "istio@1.28", "-o", "sarif", "--", "deploy/", "apps/a", "b.yaml"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "calls")
			stub := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> " + log + "; done\necho >> " + log + "\nexit " + tt.code + "\n"
			if err := os.WriteFile(filepath.Join(dir, "gwlint"), []byte(stub), 0o755); err != nil {
				t.Fatal(err)
			}
			output := filepath.Join(dir, "github-output")
			env := []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), "GITHUB_OUTPUT=" + output}
			for k, v := range step.Env {
				m := regexp.MustCompile(`^\$\{\{ inputs\.([a-z-]+) \}\}$`).FindStringSubmatch(v)
				if m == nil {
					t.Fatalf("env %s = %q is not an input", k, v)
				}
				val, ok := tt.inputs[m[1]]
				if !ok {
					val = a.Inputs[m[1]].Default
				}
				env = append(env, k+"="+val)
			}
			// As GitHub runs a bash step.
			cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", step.Run)
			cmd.Dir, cmd.Env = dir, env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the step failed: %v\n%s", err, out)
			}
			data, _ := os.ReadFile(log)
			var got [][]string
			for _, call := range strings.Split(strings.TrimSuffix(string(data), "\n\n"), "\n\n") {
				got = append(got, strings.Split(call, "\n"))
			}
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("gwlint was run as\n%q\nwant\n%q", got, tt.want)
			}
			for _, args := range got {
				if err := clitest.Execute(newCheckCmd(clitest.Discard(), func(*checkOptions) error { return nil }), args[1:]...); err != nil {
					t.Errorf("gwlint %s: %v", strings.Join(args, " "), err)
				}
			}
			if out, _ := os.ReadFile(output); string(out) != "exit-code="+tt.code+"\n" {
				t.Errorf("GITHUB_OUTPUT = %q, want exit-code=%s", out, tt.code)
			}
		})
	}
}
