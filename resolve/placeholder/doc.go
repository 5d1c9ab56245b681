// Package placeholder recognises values that a GitOps tool substitutes at
// deploy time, so that the rest of gwlint can treat them as unknown rather
// than judge their text: Flux's post-build substitution (${VAR},
// ${VAR:=default}, ${VAR:-default}, ... as github.com/fluxcd/pkg/envsubst
// reads them), Argo CD plugin placeholders (argocd-vault-plugin's
// <path:some/path#key> and <path:some/path#key#version>, and <secret:...>),
// argocd-vault-plugin's generic <key> form (only on an object annotated
// avp.kubernetes.io/path, see ForObject), and Go template actions ({{ ... }})
// left in a manifest that was never rendered.
//
// It is the one place that knows these syntaxes; package crd and package
// resolve ask it. It imports nothing of gwlint.
package placeholder
