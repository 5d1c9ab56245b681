package istio

// Implementation is Istio's reading of the world, where it differs from the
// API's; Implementation{} is the one the registry lists.
type Implementation struct{}

// Name is Istio's name in its conformance reports.
func (Implementation) Name() string { return "istio" }
