package render

import (
	"bytes"
	"os"
	"strconv"
)

// residentSize is the resident memory of process pid, in bytes, from
// /proc/PID/statm (its second field, in pages).
func residentSize(pid int) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	fields := bytes.Fields(data)
	if len(fields) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(fields[1]), 10, 64)
	return pages * int64(os.Getpagesize()), err == nil
}
