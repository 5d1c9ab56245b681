package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/trace"
)

type explainRequestOptions struct {
	explainOptions
	// Headers are -H values, "Name: value".
	Headers []string
	Method  string
	// Gateway and Service are NS/NAME (or NAME in -n's namespace).
	Gateway string
	Service string
	Port    int32

	// Request is the request the URL and flags describe.
	Request trace.Request
}

func newExplainRequestCmd(streams *cli.IOStreams, runF func(*explainRequestOptions) error) *cobra.Command {
	opts := &explainRequestOptions{explainOptions: explainOptions{IO: streams}}
	cmd := &cobra.Command{
		Use:   "request URL",
		Short: "Trace where a request goes, and why",
		Long: `Trace one request the way a conformant implementation routes it: the Gateway
and listener it arrives on (port and protocol from the URL, then the most
specific listener hostname), the routes accepted there that serve its host,
every match it satisfies ranked by the spec's precedence (hostname, path
type and length, method, headers, query parameters, then the oldest route,
namespace/name, rule order), and what the winning rule does: a redirect
answers at the Gateway; otherwise the request is split among the rule's
backends by weight (an invalid backend's share gets HTTP 500). The
runners-up say why they lost, the routes that did not match say why not.

URL is http://, https://, grpc:// (grpc://host/package.Service/Method) or
grpcs://; its port, else the scheme's (80, or 443 for https and grpcs),
selects the listeners. Without --gateway, the one Gateway with a listener
that takes the request is used. --service traces a mesh request
(GEP-1426) sent to that Service instead.

A connection is traced with tls://SNI[:port] (443 by default), tcp://host:port
or udp://host:port: a TLS listener is chosen by port and SNI, the most
specific hostname first; TCP and UDP listeners by port alone. TLSRoutes
compete by their hostname that takes the SNI (exact before wildcard, then
the longer), then by age and namespace/name; TCPRoutes and UDPRoutes have
nothing to match, so where several share a listener they conflict and the
oldest (then the first by namespace/name) is the one bound. The winning
rule splits connections among its backends by weight; an invalid backend's
share is rejected.

Exits 1 when the request is not forwarded or redirected (no listener, no
matching route: 404, HTTP 500, a connection rejected), 2 when several
Gateways could take it.`,
		Example: `  # Which route serves the cart, and which lost?
  gwctl explain request https://store.example.com/cart -f testdata/examples

  # Headers, method and query parameters take part in matching
  gwctl explain request 'http://store.example.com/api?v=2' -H 'X-Canary: true' -X POST

  # A gRPC method, on a named Gateway and port
  gwctl explain request grpc://grpc.example.com/store.Cart/Get --gateway infra/shared --port 8080

  # Which TLSRoute takes this SNI on port 5432, and which TCPRoute port 9092
  gwctl explain request tls://orders.db.example.com:5432
  gwctl explain request tcp://kafka.example.com:9092 -o json

  # A mesh request to a Service
  gwctl explain request http://cart.shop:8080/items --service shop/cart -o json`,
		Args: cobra.ExactArgs(1),
		RunE: cli.RunE(opts, opts.complete, runF, runExplainRequest),
	}
	opts.addFlags(cmd)
	fs := cmd.Flags()
	fs.Lookup("output").Usage = "output format: text, json or yaml" // a trace has no diagram
	fs.StringArrayVarP(&opts.Headers, "header", "H", nil, `request header "Name: value" (repeatable)`)
	fs.StringVarP(&opts.Method, "request", "X", "", "HTTP method (default GET)")
	fs.StringVar(&opts.Gateway, "gateway", "", "Gateway NS/NAME the request is sent to (default: the one that takes it)")
	fs.StringVar(&opts.Service, "service", "", "Service NS/NAME a mesh request is sent to")
	fs.Int32Var(&opts.Port, "port", 0, "port the request is sent to (default: the URL's, else 80 or 443)")
	return cmd
}

// complete parses the URL, headers and object names into the request.
func (o *explainRequestOptions) complete(cmd *cobra.Command, args []string) error {
	// A trace has no diagram: checked first, so that -o dot and -o foo get
	// the same message.
	if err := cli.OneOf("output", o.Output, formatText, formatJSON, formatYAML); err != nil {
		return err
	}
	if err := o.explainOptions.complete(cmd, args); err != nil {
		return err
	}
	req, err := trace.ParseRequestURL(o.Name)
	if err != nil {
		return err
	}
	if req.Stream() && (len(o.Headers) > 0 || o.Method != "") {
		return fmt.Errorf("--header and --request apply to HTTP and gRPC requests, not to a %s:// connection", req.Scheme)
	}
	for _, h := range o.Headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return fmt.Errorf("invalid value %q for --header: use \"Name: value\"", h)
		}
		req.Headers = append(req.Headers, trace.NameValue{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	}
	if o.Method != "" {
		req.Method = strings.ToUpper(o.Method)
	}
	if o.Port < 0 || o.Port > 65535 {
		return fmt.Errorf("invalid value %d for --port: not a port number", o.Port)
	}
	if o.Port != 0 {
		req.Port = o.Port
	}
	if o.Gateway != "" && o.Service != "" {
		return fmt.Errorf("--gateway and --service exclude each other: a request goes to a Gateway or, in the mesh, to a Service")
	}
	if o.Gateway != "" {
		req.Gateway = o.objectRef(resolve.KindGateway, o.Gateway)
	}
	if o.Service != "" {
		req.Service = o.objectRef(resolve.KindService, o.Service)
	}
	o.Request = req
	return nil
}

// objectRef reads NS/NAME, or NAME in -n's namespace; without -n the
// namespace is left empty, for inNamespace to find once the inputs are read.
func (o *explainRequestOptions) objectRef(kind, s string) *resolve.ObjectRef {
	ns, name, ok := strings.Cut(s, "/")
	if !ok {
		ns, name = o.Namespace, s
	}
	return &resolve.ObjectRef{Kind: kind, Namespace: ns, Name: name}
}

// inNamespace completes a --gateway or --service NAME given without a
// namespace, as the other explain commands find a name: the only object of
// that name in any namespace. None leaves the ref as it is (the trace then
// says it is not among the inputs); several are ambiguous.
func inNamespace[T resolve.Object](flag string, ref *resolve.ObjectRef, all []T) error {
	if ref == nil || ref.Namespace != "" {
		return nil
	}
	var found []string
	for _, obj := range all {
		if r := obj.Metadata().Ref; r.Name == ref.Name {
			found = append(found, r.Namespace)
		}
	}
	switch len(found) {
	case 0:
	case 1:
		ref.Namespace = found[0]
	default:
		return cli.Errorf(cli.ExitUsage, "%s %q is ambiguous: it is in namespaces %s; write %s NS/NAME or give -n",
			ref.Kind, ref.Name, strings.Join(found, ", "), flag)
	}
	return nil
}

func runExplainRequest(opts *explainRequestOptions) error {
	g, _, inputFailed := loadGraph(&opts.inputOptions, opts.IO, nil)
	if err := cmp.Or(inNamespace("--gateway", opts.Request.Gateway, g.Gateways),
		inNamespace("--service", opts.Request.Service, g.Services)); err != nil {
		return withInputErrors(err, inputFailed)
	}
	tr := trace.New(g).Trace(opts.Request)
	view := newRequestTrace(opts.Name, tr)
	if err := opts.write(view); err != nil {
		return withInputErrors(err, inputFailed)
	}
	var err error
	switch tr.Outcome {
	case trace.Forwarded, trace.Redirected, trace.ToService:
	case trace.AmbiguousGateway:
		err = cli.Errorf(cli.ExitUsage, "%s; choose one with --gateway", tr.Message)
	default:
		err = failuref("the request is not served: %s", tr.Message)
	}
	return withInputErrors(err, inputFailed)
}
