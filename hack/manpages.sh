#!/bin/sh
# Writes the man pages that release archives ship and the Homebrew cask
# installs: man/man1/gwlint.1, man/man1/gwlint-check.1, ..., one for every
# command of gwlint and gwctl (their hidden man command, built with the
# manpages tag, renders the help with cobra/doc). They are dated with the commit's date, never the clock,
# so that a commit always gives the same pages.
set -eu
date=$(git log -1 --format=%cs)
rm -rf man/man1
for cmd in gwlint gwctl; do
  go run -tags manpages "./cmd/$cmd" man --date "$date" man/man1
done
