package crd

import (
	"slices"
	"strings"
	"testing"
)

func TestReleases(t *testing.T) {
	rels := Releases()
	if len(rels) != len(releaseNames) {
		t.Fatalf("Releases() has %d releases, want %d", len(rels), len(releaseNames))
	}
	for i, r := range rels {
		if got := r.String(); got != releaseNames[i] {
			t.Errorf("Releases()[%d] = %s, want %s (oldest first)", i, got, releaseNames[i])
		}
		if p, err := ParseRelease(r.String()); err != nil || p != r {
			t.Errorf("ParseRelease(%s) = %v, %v", r, p, err)
		}
	}
	if Pinned.String() != releaseNames[pinnedSeq] || !slices.Contains(rels, Pinned) {
		t.Errorf("Pinned is %s", Pinned)
	}
	if (CRDs{}) != (CRDs{Release: Pinned, Channel: Standard}) {
		t.Error("the zero CRDs is not the pinned release's standard channel")
	}
}

func TestParseRelease(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"v1.2.0", "v1.2.0"},
		{"1.2.0", "v1.2.0"},
		{"v1.2", "v1.2.1"}, // the newest patch
		{"1.6", "v1.6.3"},
		{"v1.7", "v1.7.0"}, // newer than the pinned one
		{"v1.0", "v1.0.0"},
	} {
		r, err := ParseRelease(tc.in)
		if err != nil || r.String() != tc.want {
			t.Errorf("ParseRelease(%q) = %s, %v; want %s", tc.in, r, err, tc.want)
		}
	}
	for _, in := range []string{"", "v1", "v1.2.9", "v0.8.0", "v1.2.", "latest", "v1.20"} {
		if _, err := ParseRelease(in); err == nil || !strings.Contains(err.Error(), "v1.0.0, v1.1.0") {
			t.Errorf("ParseRelease(%q): err %v, want one listing the known releases", in, err)
		}
	}
}

// Served, Kinds and APIVersions answer for the release asked.
func TestServedByRelease(t *testing.T) {
	v120, _ := ParseRelease("v1.2.0")
	if got := Served("gateway.networking.k8s.io", "TLSRoute", v120); !slices.Equal(got, []string{"v1alpha2"}) {
		t.Errorf("v1.2.0 serves TLSRoute %v, want [v1alpha2]", got)
	}
	if got := Served("gateway.networking.k8s.io", "TLSRoute", Pinned); !slices.Contains(got, "v1") {
		t.Errorf("the pinned release serves TLSRoute %v, want v1 among them", got)
	}
	if slices.Contains(Kinds("gateway.networking.k8s.io", v120), "ListenerSet") {
		t.Error("v1.2.0 has no ListenerSet")
	}
	if slices.Contains(APIVersions(v120), "gateway.networking.k8s.io/v1/BackendTLSPolicy") {
		t.Error("v1.2.0 serves no BackendTLSPolicy v1")
	}
}

// A field only a release newer than the pinned one has is named under an
// older release, and not under the pinned one: the default's message is
// the one it gave before gwlint knew the newer release.
func TestAddedInNewerThanPinned(t *testing.T) {
	doc := func() map[string]any {
		return map[string]any{
			"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
			"metadata": map[string]any{"name": "r", "namespace": "apps"},
			"spec": map[string]any{"rules": []any{map[string]any{
				"backendRefs": []any{map[string]any{"name": "svc", "port": int64(8080)}},
				"retry":       map[string]any{"attempts": int64(2)},
			}}},
		}
	}
	v151, _ := ParseRelease("v1.5.1")
	v170, _ := ParseRelease("v1.7.0")
	for _, tc := range []struct {
		rel              Release
		message, addedIn string
	}{
		{Pinned, `Unknown field "retry"`, ""},
		{v151, `Unknown field "retry"; added in v1.7.0`, "v1.7.0"},
	} {
		got := Validate("gateway.networking.k8s.io/v1", "HTTPRoute", doc(), CRDs{Release: tc.rel})
		if len(got) != 1 || got[0].Message != tc.message || got[0].AddedIn != tc.addedIn {
			t.Errorf("%s: %+v, want one %q (AddedIn %q)", tc.rel, got, tc.message, tc.addedIn)
		}
	}
	if got := Validate("gateway.networking.k8s.io/v1", "HTTPRoute", doc(), CRDs{Release: v170}); len(got) != 0 {
		t.Errorf("v1.7.0: %+v, want none", got)
	}
}
