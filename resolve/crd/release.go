package crd

import (
	"fmt"
	"strings"
)

// Release is a Gateway API release whose CRDs crd knows (every release
// from v1.0.0, listed in internal/gen's Releases). The zero value is the
// release go.mod pins (sigs.k8s.io/gateway-api): Pinned.
type Release uint8

// Pinned is the release go.mod pins, the default.
const Pinned Release = 0

// A Release is stored as its distance from the pinned release in
// releaseNames (oldest first), modulo their number: the pinned one is
// zero, and the mapping is a bijection.

// seq is the index of r in releaseNames.
func (r Release) seq() int { return (int(r) + pinnedSeq) % len(releaseNames) }

// releaseAt is the Release at index seq of releaseNames.
func releaseAt(seq int) Release {
	return Release((seq - pinnedSeq + len(releaseNames)) % len(releaseNames))
}

// String is the release's version: "v1.6.3".
func (r Release) String() string { return releaseNames[r.seq()] }

// Releases returns every known release, oldest first.
func Releases() []Release {
	out := make([]Release, len(releaseNames))
	for i := range releaseNames {
		out[i] = releaseAt(i)
	}
	return out
}

// ParseRelease reads a release's version: "v1.2.0" or "1.2.0"; "v1.2" is
// the newest known patch release of v1.2.
func ParseRelease(s string) (Release, error) {
	v := s
	if !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	for i := len(releaseNames) - 1; i >= 0; i-- {
		name := releaseNames[i]
		if name == v || strings.HasPrefix(name, v+".") && strings.Count(v, ".") == 1 {
			return releaseAt(i), nil
		}
	}
	return Pinned, fmt.Errorf("unknown Gateway API release %q (known: %s)", s, strings.Join(releaseNames[:], ", "))
}

// CRDs is what a cluster has installed: one release's CRDs of one channel.
// The zero value is the pinned release's standard channel.
type CRDs struct {
	Release Release
	Channel Channel
}

// String is "v1.6.3 standard".
func (c CRDs) String() string { return c.Release.String() + " " + c.Channel.String() }

// versions is every served CRD version of c.
func (c CRDs) versions() []crdVersion { return crdVersions[c.Release.seq()][c.Channel] }
