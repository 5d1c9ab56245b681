//go:build !linux

package render

// residentSize is unknown here: a render is bounded by its time alone.
func residentSize(int) (int64, bool) { return 0, false }
