package lint

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md from the code")

const rulesDoc = "../docs/rules.md"

// TestRulesMarkdown keeps docs/rules.md generated from the code. After
// changing a rule, run: go test ./lint -run TestRulesMarkdown -update
func TestRulesMarkdown(t *testing.T) {
	got := RulesMarkdown()
	if *update {
		if err := os.WriteFile(rulesDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s is stale; regenerate it with: go test ./lint -run TestRulesMarkdown -update", rulesDoc)
	}
	for _, r := range AllRules() {
		if !strings.Contains(got, "\n## "+r.ID+"\n") || !strings.Contains(got, "["+r.ID+"](#"+r.ID+")") {
			t.Errorf("rules.md has no section or table row for %s", r.ID)
		}
	}
}

// TestMetaRulesAreDocumented holds the pseudo-rules to the standard of
// TestRulesAreDocumentedAndTested; their tests are in suppress_test.go.
func TestMetaRulesAreDocumented(t *testing.T) {
	idRE := regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, r := range Rules() {
		seen[r.ID] = true
	}
	prev := ""
	for _, r := range MetaRules() {
		switch {
		case !idRE.MatchString(r.ID):
			t.Errorf("pseudo-rule id %q is not kebab-case", r.ID)
		case seen[r.ID]:
			t.Errorf("pseudo-rule id %q is also a rule, or listed twice", r.ID)
		case r.ID < prev:
			t.Errorf("MetaRules() is not sorted by id: %q after %q", r.ID, prev)
		}
		seen[r.ID], prev = true, r.ID
		checkRuleDocs(t, r)
		if r.Run == nil {
			t.Errorf("%s: Run must be a no-op, not nil, so that lint.Run can be given any rule in effect", r.ID)
		}
		if LookupAny(r.ID) != r {
			t.Errorf("LookupAny(%s) does not find it", r.ID)
		}
	}
	all := AllRules()
	if len(all) != len(Rules())+len(MetaRules()) {
		t.Errorf("AllRules has %d rules, want %d", len(all), len(Rules())+len(MetaRules()))
	}
	for i := 1; i < len(all); i++ {
		if all[i-1].ID >= all[i].ID {
			t.Errorf("AllRules is not sorted: %s before %s", all[i-1].ID, all[i].ID)
		}
	}
}

func TestDocRendering(t *testing.T) {
	d := Doc{
		Text:    "Why it matters, with a list:\n    not code: it continues the paragraph.\n\nFix:",
		Example: "spec:\n  a: 1\n\n  b: 2",
		Note:    "Done.",
	}
	text := "Why it matters, with a list:\n    not code: it continues the paragraph.\n\nFix:\n\n    spec:\n      a: 1\n\n      b: 2\n\nDone."
	if got := d.String(); got != text {
		t.Errorf("String\n got %q\nwant %q", got, text)
	}
	md := "Why it matters, with a list:\n    not code: it continues the paragraph.\n\nFix:\n\n```yaml\nspec:\n  a: 1\n\n  b: 2\n```\n\nDone."
	if got := d.Markdown(); got != md {
		t.Errorf("Markdown\n got %q\nwant %q", got, md)
	}
	if got := (Doc{Text: "Only prose."}).Markdown(); got != "Only prose." {
		t.Errorf("Markdown of prose only = %q", got)
	}
}
