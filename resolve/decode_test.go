package resolve_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/internal/corpus"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// Decoding from the parsed tree must give what encoding/json gives, object
// for object and error for error, on every manifest the project knows: its
// testdata, the Gateway API's examples and a generated corpus with injected
// errors, under every way of loading that changes what is decoded.
func TestDecodeFromTreeMatchesEncodingJSON(t *testing.T) {
	var dirs []string
	for _, pattern := range []string{"../testdata", "../*/testdata", "../*/*/testdata", "../*/*/*/testdata"} {
		found, _ := filepath.Glob(pattern)
		dirs = append(dirs, found...)
	}
	dirs = append(dirs, filepath.Join(gatewayAPI(t).dir, "examples"))
	opts := corpus.DefaultOptions(corpus.Small)
	opts.InvalidRate, opts.SemanticRate = 0.2, 0.2
	dirs = append(dirs, benchutil.CorpusWith(t, opts))

	ways := []resolve.Options{
		{Validate: true, ChannelAssumed: true, Implementations: implementations.All()},
		{Validate: true, Channel: crd.Experimental},
		{},
	}
	objects := 0
	for _, dir := range dirs {
		if _, err := os.Stat(dir); err != nil {
			t.Fatal(err)
		}
		raws, _ := manifest.Read([]string{dir}, nil)
		for _, raw := range raws {
			objects++
			for _, opts := range ways {
				treeObj, treeErr := resolve.DecodeFromTree(raw, opts)
				jsonObj, jsonErr := resolve.DecodeWithEncodingJSON(raw, opts)
				if !reflect.DeepEqual(treeObj, jsonObj) {
					t.Errorf("%s: %s %s decodes differently from the tree:\n tree %+v\n json %+v", raw.Source.File, raw.Kind, raw.Ref(), treeObj, jsonObj)
				}
				if !reflect.DeepEqual(treeErr, jsonErr) {
					t.Errorf("%s: %s %s: error from the tree %v, by encoding/json %v", raw.Source.File, raw.Kind, raw.Ref(), treeErr, jsonErr)
				}
			}
		}
	}
	if objects < 1000 {
		t.Fatalf("only %d objects read from %s", objects, strings.Join(dirs, ", "))
	}
}

// FuzzDecodeFromTree decodes any JSON document as each kind both ways.
func FuzzDecodeFromTree(f *testing.F) {
	for _, seed := range []string{
		`{"metadata":{"name":"r","namespace":"n","labels":{"a":"b"},"creationTimestamp":"2025-07-01 20:47:53+00:00"},"spec":{"parentRefs":[{"name":"gw","port":80}],"rules":[{"backendRefs":[{"name":"s","port":8080,"weight":1}],"matches":[{"path":{"type":"PathPrefix","value":"/"}}]}]}}`,
		`{"metadata":{"name":"s"},"spec":{"ports":[{"port":80,"targetPort":"http"},{"port":443,"targetPort":8443}]}}`,
		`{"metadata":{"name":"s","Name":"t"},"type":"kubernetes.io/tls","data":{"tls.crt":"eA=="},"stringData":{"a":"b\nc"}}`,
		`{"metadata":{"name":"g"},"spec":{"listeners":[{"name":"l","port":99999999999,"protocol":"HTTP"}]}}`,
		`{"metadata":{"name":"g","generation":1.5},"spec":null}`,
	} {
		for _, kind := range []string{resolve.KindHTTPRoute, resolve.KindService, resolve.KindSecret, resolve.KindGateway} {
			f.Add(kind, seed)
		}
	}
	opts := resolve.Options{Validate: true, Implementations: implementations.All()}
	f.Fuzz(func(t *testing.T, kind, doc string) {
		apiVersion := "gateway.networking.k8s.io/v1"
		if kind == resolve.KindService || kind == resolve.KindSecret || kind == resolve.KindConfigMap || kind == resolve.KindNamespace {
			apiVersion = "v1"
		}
		raw := &manifest.Object{APIVersion: apiVersion, Kind: kind, JSON: []byte(doc), Source: manifest.Source{File: "fuzz.yaml"}}
		treeObj, treeErr := resolve.DecodeFromTree(raw, opts)
		jsonObj, jsonErr := resolve.DecodeWithEncodingJSON(raw, opts)
		if !reflect.DeepEqual(treeObj, jsonObj) || !reflect.DeepEqual(treeErr, jsonErr) {
			t.Errorf("%s %s: from the tree %+v, %v; by encoding/json %+v, %v", kind, doc, treeObj, treeErr, jsonObj, jsonErr)
		}
	})
}
