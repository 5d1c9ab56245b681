package main

import (
	"testing"

	"github.com/gwlint/gwlint/lint"
)

func TestGitHubEscaping(t *testing.T) {
	if got, want := escapeData("100% of a\r\nb: c, d"), "100%25 of a%0D%0Ab: c, d"; got != want {
		t.Errorf("escapeData = %q, want %q", got, want)
	}
	if got, want := escapeProperty("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae"; got != want {
		t.Errorf("escapeProperty = %q, want %q", got, want)
	}
}

func TestSummary(t *testing.T) {
	for _, tt := range []struct {
		s    summary
		want string
	}{
		{summary{}, "0 errors, 0 warnings, 0 info in 0 files (0 objects)"},
		{summary{Errors: 1, Warnings: 1, Info: 1, Files: 1, Objects: 1}, "1 error, 1 warning, 1 info in 1 file (1 object)"},
		{summary{Errors: 3, Warnings: 2, Info: 2, Files: 5, Objects: 12, Suppressed: 2}, "3 errors, 2 warnings, 2 info in 5 files (12 objects); 2 suppressed"},
		{summary{Errors: 3, Files: 5, Objects: 12, Quiet: true}, "3 errors, 0 warnings in 5 files (12 objects)"},
		{summary{Files: 5, Objects: 12, NotManifests: 3}, "0 errors, 0 warnings, 0 info in 5 files (12 objects; 3 not manifests, skipped)"},
		{summary{Files: 2, Objects: 1, NotManifests: 1, Suppressed: 1}, "0 errors, 0 warnings, 0 info in 2 files (1 object; 1 not a manifest, skipped); 1 suppressed"},
	} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestLocation(t *testing.T) {
	for p, want := range map[lint.Position]string{
		{File: "a.yaml", Line: 3, Col: 5}: "a.yaml:3:5",
		{File: "a.yaml", Line: 3}:         "a.yaml:3",
		{File: "a.yaml"}:                  "a.yaml",
	} {
		if got := location(p); got != want {
			t.Errorf("location(%+v) = %q, want %q", p, got, want)
		}
	}
}
