package editdistance

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"name", "nam", 1}, {"value", "valeu", 2}, {"weight", "weigth", 2}, {"listener-no-rotes", "listener-no-routes", 1}, {"kitten", "sitting", 3},
	} {
		if got := Levenshtein(tc.a, tc.b); got != tc.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
