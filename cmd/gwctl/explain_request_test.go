package main

import (
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/trace"
)

const (
	traceTree = "testdata/trace"
	// streamTree has TLS, TCP and UDP listeners and routes.
	streamTree = "testdata/trace-stream"
)

func TestExplainRequestGolden(t *testing.T) {
	golden.RunCases(t, newRootCmd, []clitest.GoldenCase{
		// The more specific listener takes the host; Exact /cart beats the
		// prefixes; the older catch-all beats the store route's own "/".
		{Name: "request-exact", Args: []string{"explain", "request", "http://store.example.com/cart", "-f", traceTree}, Code: 0},
		{Name: "request-exact-json", Args: []string{"explain", "request", "http://store.example.com/cart", "-f", traceTree, "-o", "json"}, Code: 0},
		// A header match outranks the same prefix without one; a rewrite.
		{Name: "request-header", Args: []string{"explain", "request", "http://store.example.com/api/x", "-H", "X-Canary: true", "-f", traceTree}, Code: 0},
		{Name: "request-rewrite", Args: []string{"explain", "request", "http://store.example.com/api/x?v=2", "-f", traceTree}, Code: 0},
		// A longer prefix of a wildcard route beats a shorter one.
		{Name: "request-prefix-length", Args: []string{"explain", "request", "http://store.example.com/api/orders/7", "-f", traceTree}, Code: 0},
		{Name: "request-redirect", Args: []string{"explain", "request", "http://old.example.com/a", "-f", traceTree}, Code: 0},
		{Name: "request-redirect-json", Args: []string{"explain", "request", "http://old.example.com/a", "-f", traceTree, "-o", "json"}, Code: 0},
		// Half the canary goes to a missing Service: HTTP 500.
		{Name: "request-canary-500", Args: []string{"explain", "request", "http://beta.example.com/", "-f", traceTree}, Code: 0},
		{Name: "request-name-tie", Args: []string{"explain", "request", "http://twin.example.com/", "-f", traceTree}, Code: 0},
		{Name: "request-grpc", Args: []string{"explain", "request", "grpcs://grpc.example.com/store.Cart/Get", "-f", traceTree, "--gateway", "infra/edge"}, Code: 0},
		{Name: "request-no-route", Args: []string{"explain", "request", "grpcs://grpc.example.com/store.Orders/List", "-f", traceTree}, Code: 1},
		{Name: "request-no-gateway", Args: []string{"explain", "request", "http://store.example.com:8080/", "-f", traceTree}, Code: 1},
		{Name: "request-mesh", Args: []string{"explain", "request", "http://cart.shop/", "-H", "x-beta: yes", "--service", "shop/cart", "-f", "testdata/mesh"}, Code: 0},
		{Name: "request-mesh-json", Args: []string{"explain", "request", "http://cart.shop/", "--service", "shop/cart", "-f", "testdata/mesh", "-o", "json"}, Code: 0},
		// TLS by SNI: the exact TLSRoute hostname beats the wildcard, and
		// the older of two routes with the same hostname beats the copy.
		{Name: "request-tls-sni", Args: []string{"explain", "request", "tls://orders.db.example.com:5432", "-f", streamTree}, Code: 0},
		{Name: "request-tls-sni-json", Args: []string{"explain", "request", "tls://orders.db.example.com:5432", "-f", streamTree, "-o", "json"}, Code: 0},
		// The more specific listener hostname takes the SNI.
		{Name: "request-tls-listener", Args: []string{"explain", "request", "tls://reports.db.example.com:5432", "-f", streamTree}, Code: 0},
		// A TCPRoute behind a terminating TLS listener.
		{Name: "request-tls-terminate", Args: []string{"explain", "request", "tls://cache.example.com:6379", "-f", streamTree}, Code: 0},
		{Name: "request-tls-no-listener", Args: []string{"explain", "request", "tls://orders.example.org:5432", "--gateway", "infra/data", "-f", streamTree}, Code: 1},
		// Two TCPRoutes on one listener conflict: the older is bound.
		{Name: "request-tcp-conflict", Args: []string{"explain", "request", "tcp://kafka.example.com:9092", "-f", streamTree}, Code: 0},
		{Name: "request-tcp-conflict-json", Args: []string{"explain", "request", "tcp://kafka.example.com:9092", "-f", streamTree, "-o", "json"}, Code: 0},
		{Name: "request-udp-split", Args: []string{"explain", "request", "udp://dns.example.com:53", "-f", streamTree}, Code: 0},
	})
}

func TestExplainRequestExitCodes(t *testing.T) {
	clitest.RunCases(t, newRootCmd, []clitest.Case{
		{Name: "ambiguous gateway", Args: []string{"explain", "request", "http://store.example.com/", "-f", traceTree, "-f", clitest.Examples},
			Code: 2, StderrHas: "choose one with --gateway"},
		{Name: "unknown gateway", Args: []string{"explain", "request", "http://x/", "--gateway", "infra/nope", "-f", traceTree},
			Code: 1, StderrHas: "Gateway infra/nope is not among the inputs"},
		{Name: "bad url", Args: []string{"explain", "request", "store.example.com/cart", "-f", traceTree},
			Code: 2, StderrHas: "has no scheme", StdoutNone: true},
		{Name: "bad grpc url", Args: []string{"explain", "request", "grpc://h/onlyservice", "-f", traceTree},
			Code: 2, StderrHas: "a gRPC URL names a method", StdoutNone: true},
		{Name: "bad header", Args: []string{"explain", "request", "http://h/", "-H", "novalue", "-f", traceTree},
			Code: 2, StderrHas: `invalid value "novalue" for --header`, StdoutNone: true},
		{Name: "diagram output", Args: []string{"explain", "request", "http://h/", "-o", "dot"},
			Code: 2, StderrHas: `invalid value "dot" for --output: must be one of text, json, yaml`, StdoutNone: true},
		{Name: "unknown output", Args: []string{"explain", "request", "http://h/", "-o", "foo"},
			Code: 2, StderrHas: `invalid value "foo" for --output: must be one of text, json, yaml`, StdoutNone: true},
		{Name: "gateway and service", Args: []string{"explain", "request", "http://h/", "--gateway", "a/b", "--service", "c/d"},
			Code: 2, StderrHas: "exclude each other", StdoutNone: true},
		{Name: "no tcp listener", Args: []string{"explain", "request", "tcp://h:5432", "-f", streamTree},
			Code: 1, StderrHas: "no Gateway has a valid TCP listener on port 5432"},
		{Name: "tcp without port", Args: []string{"explain", "request", "tcp://kafka.example.com", "-f", streamTree},
			Code: 2, StderrHas: "a tcp:// URL needs a port", StdoutNone: true},
		{Name: "tls with a path", Args: []string{"explain", "request", "tls://h/x", "-f", streamTree},
			Code: 2, StderrHas: "see no path or query", StdoutNone: true},
		{Name: "tls with a header", Args: []string{"explain", "request", "tls://h", "-H", "A: b", "-f", streamTree},
			Code: 2, StderrHas: "not to a tls:// connection", StdoutNone: true},
	})
}

func TestExplainRequestFlags(t *testing.T) {
	base := explainOptions{inputOptions: defaultInputs, Output: "text", Color: "auto"}
	withName := func(url string) explainOptions { o := base; o.Name = url; return o }
	clitest.RunFlagCases(t, newExplainRequestCmd, []clitest.FlagCase[explainRequestOptions]{
		{
			Name: "defaults",
			Args: []string{"http://shop.example.com/cart?id=1&x=a%20b"},
			Want: explainRequestOptions{explainOptions: withName("http://shop.example.com/cart?id=1&x=a%20b"), Request: trace.Request{
				Scheme: "http", Host: "shop.example.com", Path: "/cart",
				Query: []trace.NameValue{{Name: "id", Value: "1"}, {Name: "x", Value: "a b"}},
			}},
		},
		{
			Name: "every flag",
			Args: []string{"https://Shop.example.com:8443/", "-H", "X-A: 1", "-H", "x-b:two", "-X", "post", "--gateway", "edge", "-n", "infra", "--port", "9443"},
			Want: func() explainRequestOptions {
				o := explainRequestOptions{explainOptions: withName("https://Shop.example.com:8443/"),
					Headers: []string{"X-A: 1", "x-b:two"}, Method: "post", Gateway: "edge", Port: 9443,
					Request: trace.Request{Scheme: "https", Host: "shop.example.com", Port: 9443, Path: "/", Method: "POST",
						Headers: []trace.NameValue{{Name: "X-A", Value: "1"}, {Name: "x-b", Value: "two"}},
						Gateway: &resolve.ObjectRef{Kind: resolve.KindGateway, Namespace: "infra", Name: "edge"}}}
				o.Namespace = "infra"
				return o
			}(),
		},
		{
			Name: "grpc and service",
			Args: []string{"grpc://cart/store.Cart/Get", "--service", "shop/cart"},
			Want: explainRequestOptions{explainOptions: withName("grpc://cart/store.Cart/Get"), Service: "shop/cart",
				Request: trace.Request{Scheme: "grpc", Host: "cart", Path: "/store.Cart/Get", Method: "POST",
					GRPCService: "store.Cart", GRPCMethod: "Get",
					Service: &resolve.ObjectRef{Kind: resolve.KindService, Namespace: "shop", Name: "cart"}}},
		},
		{
			Name: "tls",
			Args: []string{"tls://Orders.db.example.com:5432", "--gateway", "infra/data"},
			Want: explainRequestOptions{explainOptions: withName("tls://Orders.db.example.com:5432"), Gateway: "infra/data",
				Request: trace.Request{Scheme: "tls", Host: "orders.db.example.com", Port: 5432,
					Gateway: &resolve.ObjectRef{Kind: resolve.KindGateway, Namespace: "infra", Name: "data"}}},
		},
		{Name: "no url", Args: nil, WantErr: "accepts 1 arg(s), received 0"},
		{Name: "bad scheme", Args: []string{"ftp://h/"}, WantErr: `scheme "ftp" is not supported`},
		{Name: "bad port", Args: []string{"http://h/", "--port", "70000"}, WantErr: "not a port number"},
		{Name: "bad output", Args: []string{"http://h/", "-o", "wide"}, WantErr: `invalid value "wide" for --output`},
	})
}

// --gateway NAME without -n finds the only Gateway of that name, as the
// other explain commands find a name.
func TestExplainRequestGatewayByName(t *testing.T) {
	clitest.RunCases(t, newRootCmd, []clitest.Case{
		{Name: "unique name", Args: []string{"explain", "request", "http://store.example.com/", "--gateway", "edge", "-f", traceTree},
			Code: 0, StdoutHas: "Gateway infra/edge"},
		{Name: "unknown name", Args: []string{"explain", "request", "http://x/", "--gateway", "nope", "-f", traceTree},
			Code: 1, StderrHas: "Gateway nope is not among the inputs"},
	})
}
