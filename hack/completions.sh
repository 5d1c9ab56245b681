#!/bin/sh
# Writes the shell completion scripts that release archives ship:
# completions/{gwlint,gwctl}.{bash,zsh,fish}.
set -eu
mkdir -p completions
for cmd in gwlint gwctl; do
  for sh in bash zsh fish; do
    go run "./cmd/$cmd" completion "$sh" > "completions/$cmd.$sh"
  done
done
