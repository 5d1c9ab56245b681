package manifest

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// plainWord says of eight bytes what a byte-by-byte test says: every byte
// value in every place, among plain bytes and among other bytes of every
// kind, and random words.
func TestPlainWord(t *testing.T) {
	plain := func(b byte) bool { return b == '\n' || b >= 0x20 && b <= 0x7E }
	want := func(w uint64) bool {
		for i := range 8 {
			if !plain(byte(w >> (8 * i))) {
				return false
			}
		}
		return true
	}
	for _, fill := range []byte{'a', '\n', ' ', '~', 0x00, 0x09, 0x1F, 0x7F, 0x80, 0xFF} {
		for place := range 8 {
			for v := range 256 {
				word := make([]byte, 8)
				for i := range word {
					word[i] = fill
				}
				word[place] = byte(v)
				w := binary.LittleEndian.Uint64(word)
				if got := plainWord(w); got != want(w) {
					t.Fatalf("plainWord(% x) = %v, want %v", word, got, want(w))
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		w := r.Uint64()
		if got := plainWord(w); got != want(w) {
			t.Fatalf("plainWord(%#016x) = %v, want %v", w, got, want(w))
		}
	}
}

func TestScanTextWordAtATime(t *testing.T) {
	pieces := []string{"apiVersion: v1\n", "  name: a", "\t", "\r\n", "é", "✓", "\u0085", "\u2028", "\ufeff",
		"\x7f", "\x00", "\x01", "\xff", "\xe2\x9c", "\uffff", "😀", "#", " ", "\n", "kind: Service\n"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200_000 {
		var data []byte
		for range r.IntN(12) {
			p := pieces[r.IntN(len(pieces))]
			if r.IntN(3) > 0 {
				p = pieces[0] // mostly plain, as manifests are
			}
			data = append(data, p...)
		}
		gotFast, gotBad := scanText(data)
		wantFast, wantBad := scanTextBy(data, false)
		if gotFast != wantFast || gotBad != wantBad {
			t.Fatalf("scanText(%q) = %v, %d; want %v, %d", data, gotFast, gotBad, wantFast, wantBad)
		}
	}
}
