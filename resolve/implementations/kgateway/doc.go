// Package kgateway is where kgateway (https://kgateway.dev) reads the
// Gateway API otherwise than the API does: the steps of
// resolve.Implementation it takes part in, and the facts only it has.
// Facts several implementations share stay in package profile.
package kgateway
