// Package gke is where GKE's Gateway controller
// (https://cloud.google.com/kubernetes-engine/docs/concepts/gateway-api)
// reads the Gateway API otherwise than the API does: its policy kinds.
// Facts several implementations share stay in package profile.
package gke
