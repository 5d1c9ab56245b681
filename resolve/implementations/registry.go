package implementations

import (
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/implementations/gke"
	"github.com/gwlint/gwlint/resolve/implementations/istio"
	"github.com/gwlint/gwlint/resolve/implementations/kgateway"
	"github.com/gwlint/gwlint/resolve/implementations/nginx"
)

// All returns every implementation whose reading of the world gwlint knows,
// for resolve.Options.Implementations. Add a new one here, in order of
// name.
func All() []resolve.Implementation {
	return []resolve.Implementation{
		envoygateway.Implementation{},
		gke.Implementation{},
		istio.Implementation{},
		kgateway.Implementation{},
		nginx.Implementation{},
	}
}
