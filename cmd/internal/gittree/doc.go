// Package gittree reads the files of a git revision without checking it
// out: the blobs a revision holds under the paths asked for are written to
// a temporary directory, which the usual readers then read as if it were
// the work tree. gwctl diff and gwlint check --new-from-rev share it.
package gittree
