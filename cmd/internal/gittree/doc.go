// Package gittree reads the files of a git revision without checking it
// out: the blobs that reading the paths asked for needs (the manifests
// below them, and whatever their kustomizations and charts read, from
// anywhere in the repository) are written to a temporary directory, which
// the usual readers then read as if it were the work tree. gwctl diff and
// gwlint check --new-from-rev share it.
package gittree
