// Package gittree reads the files of a git revision without checking it
// out: the blobs that reading the paths asked for needs (the manifests
// below them, and whatever their kustomizations and charts read, from
// anywhere in the repository) are written to a temporary directory, which
// the usual readers then read as if it were the work tree. gwctl diff and
// gwlint check --new-from-rev share it.
//
// A revision is data from whoever pushed it, its names included: an entry
// git would refuse to check out ("..", ".git", a name holding a / or a \)
// is never written, only reported (Tree.Refused), and every file is
// created anew below the directory, never over another nor through a
// symbolic link.
package gittree
