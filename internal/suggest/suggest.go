// Package suggest finds what a misspelt name was meant to be, for "did you
// mean" hints: rule ids in gwlint's configuration and ignores, kinds in
// manifests, and the names of the objects a reference means (Misspelt).
package suggest

import (
	"iter"
	"strings"
)

// Closest returns the candidate nearest to name, ignoring case, if it is
// at most 3 edits away; else "".
func Closest(name string, candidates []string) string {
	best, bestDist := "", 4
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if d := Distance(lower, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Misspelt returns the candidate that name, an object's name a reference
// gives, was most likely meant to be: the only candidate one slip of the
// keyboard away (a letter dropped, doubled, changed, or two neighbours
// swapped), where that slip does not turn one sibling's name into
// another's. Else "".
//
// Kubernetes names often differ from their siblings' by design: numbered
// (store-1, store-2, app-v1, app-v2), lettered (zone-a, zone-b), or by a
// protocol's secure form (web-http, web-https). A reference to store-3 or
// web-https is a sibling the inputs do not show, not a typo of store-1 or
// web-http; so a difference in digits, in a segment of one or two
// characters, or by a trailing "s" is never a slip. Names shorter than four
// characters are never slips either: one edit changes too much of them
// (web, api). When two candidates are a slip away, which was meant is
// unknown, and nothing is returned.
func Misspelt(name string, candidates iter.Seq[string]) string {
	if len(name) < 4 {
		return ""
	}
	found := ""
	for c := range candidates {
		if c == name || len(c) < 4 || osaDistance(name, c) != 1 {
			continue
		}
		if found != "" {
			return "" // ambiguous: store-3 beside store-1 and store-2
		}
		found = c
	}
	if found == "" || siblings(name, found) {
		return ""
	}
	return found
}

// siblings reports whether a and b, one edit apart, differ the way names
// of sibling objects do: in their digits alone, in a segment of one or two
// characters, or by a trailing "s" of a segment.
func siblings(a, b string) bool {
	if strings.Map(dropDigits, a) == strings.Map(dropDigits, b) {
		return true
	}
	sa, sb := strings.FieldsFunc(a, separator), strings.FieldsFunc(b, separator)
	if len(sa) != len(sb) {
		return false // the slip added or dropped a separator
	}
	for i := range sa {
		x, y := sa[i], sb[i]
		if x == y {
			continue
		}
		return len(x) <= 2 || len(y) <= 2 || x+"s" == y || y+"s" == x
	}
	return false
}

func dropDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return -1
	}
	return r
}

func separator(r rune) bool { return r == '-' || r == '.' || r == '_' }

// osaDistance is the optimal string alignment distance between a and b, in
// bytes: Levenshtein's edits plus the swap of two neighbours, each one edit
// ("sharde" is one slip from "shared", two edits for Distance).
func osaDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
