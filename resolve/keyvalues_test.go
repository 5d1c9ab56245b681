package resolve

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
)

func TestKeyValues(t *testing.T) {
	kv := keyValuesOf(map[string]string{"team": "shop", "app": "store", "tier": ""})
	if want := (KeyValues{{"app", "store"}, {"team", "shop"}, {"tier", ""}}); !slices.Equal(kv, want) {
		t.Fatalf("keyValuesOf = %v, want %v", kv, want)
	}
	for _, c := range []struct {
		key, value string
		ok         bool
	}{{"app", "store", true}, {"team", "shop", true}, {"tier", "", true}, {"", "", false}, {"apps", "", false}, {"zone", "", false}} {
		if v, ok := kv.Lookup(c.key); v != c.value || ok != c.ok {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", c.key, v, ok, c.value, c.ok)
		}
		if kv.Get(c.key) != c.value || kv.Has(c.key) != c.ok {
			t.Errorf("Get, Has(%q) = %q, %v", c.key, kv.Get(c.key), kv.Has(c.key))
		}
	}
	if keyValuesOf(nil) != nil || KeyValues(nil).Has("a") {
		t.Error("no labels: not empty")
	}

	withName := kv.with(NamespaceNameLabel, "shop")
	if withName.Get(NamespaceNameLabel) != "shop" || len(withName) != 4 || kv.Has(NamespaceNameLabel) {
		t.Errorf("with a new key = %v (from %v)", withName, kv)
	}
	replaced := kv.with("team", "ops")
	if replaced.Get("team") != "ops" || len(replaced) != 3 || kv.Get("team") != "shop" {
		t.Errorf("with a key it has = %v (from %v)", replaced, kv)
	}
	if !slices.IsSortedFunc(withName, func(a, b KeyValue) int { return strings.Compare(a.Key, b.Key) }) {
		t.Errorf("with left %v unsorted", withName)
	}

	// Selectors read them as they read a map.
	for _, sel := range []string{"team=shop", "team!=ops", "tier", "!zone", "app in (store,cart)", "team=ops", "zone"} {
		s, err := labels.Parse(sel)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{"team": "shop", "app": "store", "tier": ""}
		if got, want := s.Matches(kv), s.Matches(labels.Set(m)); got != want {
			t.Errorf("%s matches: %v, as a map %v", sel, got, want)
		}
	}
}
