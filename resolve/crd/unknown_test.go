package crd

import (
	"regexp"
	"testing"
)

// TestPatternAlphabet: a pattern's alphabet is sound (every string the
// pattern matches uses only its characters, or the pattern has no alphabet)
// and restricts where it should.
func TestPatternAlphabet(t *testing.T) {
	inputs := patternInputs()
	for src := range nativePatterns {
		p := &pattern{src: src}
		allowed := p.alphabet()
		if allowed == nil {
			continue
		}
		re := regexp.MustCompile(src)
		for _, s := range inputs {
			if !re.MatchString(s) {
				continue
			}
			for _, r := range s {
				if !allowed(r) {
					t.Errorf("%s matches %q, but its alphabet leaves out %q", src, s, r)
				}
			}
		}
	}
	hostname := &pattern{src: `^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`}
	for _, r := range "az09.-*" {
		if !hostname.alphabet()(r) {
			t.Errorf("hostname alphabet leaves out %q", r)
		}
	}
	for _, r := range "_A $/" {
		if hostname.alphabet()(r) {
			t.Errorf("hostname alphabet has %q", r)
		}
	}
	for _, src := range []string{
		`^(([^:/?#]+):)(//([^/?#]*))([^?#]*)(\?([^#]*))?(#(.*))?`, // unanchored at the end
		`^Hostname|IPAddress|NamedAddress|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$`,
	} {
		if (&pattern{src: src}).alphabet() != nil {
			t.Errorf("%s is not anchored at both ends: no alphabet", src)
		}
	}
}
