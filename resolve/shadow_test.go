package resolve

import (
	"hash/maphash"
	"testing"
)

// Two different (hostname, key) pairs with the same hash must not shadow
// each other; the same pair must.
func TestFirstMatchesCollision(t *testing.T) {
	f := firstMatches{byHash: map[uint64]claim{}}
	a := &matchEntry{key: "HTTP\x00path PathPrefix /"}
	h := maphash.Comparable(shadowSeed, hostMatch{"a.example.com", a.key})
	f.byHash[h] = claim{"b.example.com", &matchEntry{key: "HTTP\x00path Exact /b"}} // a colliding pair
	if w := f.claim("a.example.com", a); w != nil {
		t.Fatalf("a colliding pair shadowed the match: %+v", w)
	}
	again := &matchEntry{key: a.key}
	if w := f.claim("a.example.com", again); w != a {
		t.Errorf("the same pair again: winner %v, want the first", w)
	}
	if w := f.claim("c.example.com", again); w != nil {
		t.Errorf("another hostname was shadowed by %v", w)
	}
}
