package gitops

import (
	"encoding/base64"
	"encoding/json"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// values indexes the ConfigMaps and Secrets among the inputs by kind,
// namespace and name: where a Kustomization's substituteFrom and a
// HelmRelease's valuesFrom read.
type values map[string]valueSet

// valueSet is what one ConfigMap or Secret holds: data whose values the
// repository shows, and keys whose values it does not (a Secret that SOPS
// encrypts, to be decrypted by Flux when it is applied).
type valueSet struct {
	data    map[string]string
	unknown []string
}

func valuesKey(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

// add indexes the ConfigMaps and Secrets of objects kept, and the Secrets
// their ExternalSecrets make.
func (v values) add(kept []*manifest.Object) {
	for _, raw := range kept {
		if raw.Kind == "ExternalSecret" {
			v.addExternalSecret(raw)
			continue
		}
		if raw.APIVersion != "v1" || (raw.Kind != "ConfigMap" && raw.Kind != "Secret") {
			continue
		}
		var doc struct {
			Metadata struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
			Data       map[string]string `json:"data"`
			StringData map[string]string `json:"stringData"`
			SOPS       json.RawMessage   `json:"sops"`
		}
		if json.Unmarshal(raw.JSON, &doc) != nil {
			continue
		}
		set := valueSet{data: map[string]string{}}
		for k, s := range doc.Data {
			switch {
			case doc.SOPS != nil:
				set.unknown = append(set.unknown, k)
			case raw.Kind == "Secret":
				if b, err := base64.StdEncoding.DecodeString(s); err == nil {
					set.data[k] = string(b)
				} else {
					set.unknown = append(set.unknown, k)
				}
			default:
				set.data[k] = s
			}
		}
		for k, s := range doc.StringData {
			if doc.SOPS != nil {
				set.unknown = append(set.unknown, k)
			} else {
				set.data[k] = s
			}
		}
		v[valuesKey(raw.Kind, doc.Metadata.Namespace, doc.Metadata.Name)] = set
	}
}

// of is what the ConfigMap or Secret kind/namespace/name holds, and
// whether the repository shows it.
func (v values) of(kind, namespace, name string) (valueSet, bool) {
	set, ok := v[valuesKey(kind, namespace, name)]
	return set, ok
}

// addExternalSecret indexes the Secret an ExternalSecret makes, when the
// inputs hold no Secret of its name and its keys are known
// (resolve.ExternalSecretSpec.Keys), their values unknown (a secret
// store's). Otherwise what it holds is unknown, as a Secret missing from
// the inputs.
func (v values) addExternalSecret(raw *manifest.Object) {
	var doc struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
		Spec resolve.ExternalSecretSpec `json:"spec"`
	}
	if json.Unmarshal(raw.JSON, &doc) != nil {
		return
	}
	name := doc.Spec.Secret(doc.Metadata.Name)
	keys, known := doc.Spec.Keys()
	if name == "" || !known {
		return
	}
	key := valuesKey("Secret", doc.Metadata.Namespace, name)
	if _, ok := v[key]; ok {
		return // the Secret itself is among the inputs
	}
	v[key] = valueSet{data: map[string]string{}, unknown: keys}
}
