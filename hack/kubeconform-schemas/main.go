// Command kubeconform-schemas writes JSON schemas that kubeconform can
// validate the benchmark corpora with offline, for hack/bench.sh's
// comparison (see docs/performance.md):
//
//   - every served version of every Gateway API v1.6.3 CRD (experimental
//     channel, a superset of standard), from the openAPIV3Schema in the
//     gateway-api module's config/crd, as OUT/<group>/<kind>_<version>.json;
//   - permissive object schemas for the core v1 kinds the corpora hold
//     (Service, Namespace, Secret), since the Kubernetes schemas cannot be
//     fetched here: kubeconform still reads and checks every document.
//
// Use with: kubeconform -schema-location 'OUT/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json'
//
//	go run ./hack/kubeconform-schemas -out bin/kubeconform-schemas
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

type crd struct {
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Served bool   `json:"served"`
			Schema struct {
				OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

func main() {
	out := flag.String("out", "bin/kubeconform-schemas", "output directory")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "kubeconform-schemas:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	modDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		return fmt.Errorf("locating the gateway-api module: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(strings.TrimSpace(string(modDir)), "config", "crd", "experimental", "gateway.networking.k8s.io_*.yaml"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no CRDs found (%v)", err)
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var c crd
		if err := yaml.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if c.Spec.Names.Kind == "" {
			continue // not a CRD (the ValidatingAdmissionPolicy file)
		}
		for _, v := range c.Spec.Versions {
			if !v.Served || len(v.Schema.OpenAPIV3Schema) == 0 {
				continue
			}
			if err := write(out, c.Spec.Group, c.Spec.Names.Kind, v.Name, v.Schema.OpenAPIV3Schema); err != nil {
				return err
			}
			n++
		}
	}
	permissive := json.RawMessage(`{"type":"object","required":["apiVersion","kind","metadata"],"properties":{"metadata":{"type":"object","required":["name"]}}}`)
	for _, kind := range []string{"Service", "Namespace", "Secret"} {
		if err := write(out, "v1", kind, "v1", permissive); err != nil {
			return err
		}
		n++
	}
	fmt.Printf("wrote %d schemas to %s\n", n, out)
	return nil
}

func write(out, group, kind, version string, schema json.RawMessage) error {
	dir := filepath.Join(out, group)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, strings.ToLower(kind)+"_"+version+".json"), schema, 0o644)
}
