package kgateway

// Implementation is kgateway's reading of the world, where it differs from
// the API's; Implementation{} is the one the registry lists.
type Implementation struct{}

// Name is kgateway's name in its conformance reports.
func (Implementation) Name() string { return "kgateway" }
