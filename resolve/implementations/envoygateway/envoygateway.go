package envoygateway

// Implementation is Envoy Gateway's reading of the world, where it differs
// from the API's; Implementation{} is the one the registry lists.
type Implementation struct {
	// Config is what its own configuration says, which gwlint cannot see.
	Config Config
}

// Name is Envoy Gateway's name in its conformance reports.
func (Implementation) Name() string { return "envoy-gateway" }
