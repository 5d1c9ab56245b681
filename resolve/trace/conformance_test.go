package trace

// Traffic conformance: the conformance suite's traffic assertions, replayed
// through Tracer.Trace. Every http.ExpectedResponse, grpc.ExpectedResponse,
// tcp.ExpectedResponse and udp.ExpectedResponse literal in the conformance
// module's tests/*.go is read with go/parser (no expectation is copied by
// hand): the request (host, path and query, method, headers; for gRPC the
// method and :authority; for a TLS connection the SNI), the Gateway and
// listener its test sends it to (the last kubernetes.NewGatewayRef before
// it), and what must come back: a backend Service and namespace, or a status
// code, a redirect Location, the path and host a rewrite gives the backend.
// So is every tls.MakeTLSConnectionAndExpectEventuallyConnectionRejection
// call: the connection must not be forwarded. Trace must agree. A case is skipped, with the reason, only when its
// values are computed at run time or it asserts what Trace does not model
// (traceNotModelled); the test logs how many cases it checked.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/internal/conformancetest"
)

// traceNotModelled are conformance tests whose traffic assertions depend on
// what Trace does not model, by ShortName, with the reason.
var traceNotModelled = map[string]string{}

// traceDivergences are cases (test/index) where Trace disagrees with the
// suite, with the reason; they must still disagree.
var traceDivergences = map[string]string{}

// grpcEchoService is the conformance gRPC echo server's fully qualified
// service (utils/grpc: echoServerPackage + "." + echoServerService).
const grpcEchoService = "gateway_api_conformance.echo_basic.grpcecho.GrpcEcho"

// gatewayAddress stands for the Gateway's address, which the suite uses as
// the host when a request names none.
const gatewayAddress = "192.0.2.1"

type trafficCase struct {
	test, name, source string
	manifests          []string
	gateway            resolve.ObjectRef
	listener           string // "" for the first listener
	port               string // the port the address names, "" for the listener's
	failure            bool   // the request must fail to connect
	grpc               bool
	host, path, method string
	// sniRoute is the TLSRoute whose first hostname the test sends as the
	// SNI (kubernetes.GatewayAndTLSRoutesMustBeAccepted returns them).
	sniRoute   *resolve.ObjectRef
	headers    []NameValue
	grpcMethod string

	backend, namespace string
	statuses           []int
	redirect           *redirectWant
	rewrite            *rewriteWant
	skip               string
}

type redirectWant struct{ scheme, host, port, path string }

type rewriteWant struct{ host, path string }

func TestTraceConformance(t *testing.T) {
	dir := conformancetest.Dir(t)
	cases := loadTrafficCases(t, dir)
	checked, passed := 0, 0
	var skipped []string
	for _, c := range cases {
		if reason, ok := traceNotModelled[c.test]; ok && c.skip == "" {
			c.skip = reason
		}
		if c.skip != "" {
			skipped = append(skipped, fmt.Sprintf("%s (%s): %s", c.name, c.source, c.skip))
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			problem, skip := c.check(t, dir)
			if skip != "" {
				skipped = append(skipped, fmt.Sprintf("%s (%s): %s", c.name, c.source, skip))
				t.Skip(skip)
			}
			checked++
			reason, known := traceDivergences[c.name]
			switch {
			case known && problem == "":
				t.Errorf("listed in traceDivergences (%s) but now agrees: remove the entry", reason)
			case known:
				t.Logf("known divergence (%s): %s", reason, problem)
			case problem != "":
				t.Errorf("%s [%s]", problem, c.source)
			default:
				passed++
			}
		})
	}
	for name := range traceDivergences {
		if !slices.ContainsFunc(cases, func(c trafficCase) bool { return c.name == name }) {
			t.Errorf("traceDivergences names %s, which is not a case", name)
		}
	}
	t.Logf("traffic cases: %d; checked: %d, agreeing: %d, known divergences: %d; skipped: %d",
		len(cases), checked, passed, len(traceDivergences), len(skipped))
	for _, s := range skipped {
		t.Logf("skipped %s", s)
	}
}

// check traces the case's request and says how the result differs from
// what the suite expects ("" when it agrees), or why it cannot be checked.
func (c *trafficCase) check(t *testing.T, dir string) (problem, skip string) {
	g := conformanceGraph(t, dir, c.manifests, traceMutations[c.name])
	gw := g.Gateway(c.gateway.Namespace, c.gateway.Name)
	if gw == nil || len(gw.Listeners) == 0 {
		return fmt.Sprintf("Gateway %s is not among the test's manifests, or has no listeners", c.gateway.NamespacedName()), ""
	}
	// The address's port: net.JoinHostPort's, else the named listener's,
	// else the first listener's (kubernetes.WaitForGatewayAddress).
	l := gw.Listeners[0]
	for _, x := range gw.Listeners {
		if x.Name == c.listener {
			l = x
		}
	}
	port := l.Port
	if c.port != "" && c.port != portFromHost {
		n, _ := strconv.Atoi(c.port)
		port = int32(n)
		for _, x := range gw.Listeners {
			if x.Port == port {
				l = x
			}
		}
	}
	host := c.host
	if h, p, err := net.SplitHostPort(host); err == nil {
		host = h
		if c.port == portFromHost {
			n, _ := strconv.Atoi(p)
			port = int32(n)
			for _, x := range gw.Listeners {
				if x.Port == port {
					l = x
				}
			}
		}
	}
	scheme := map[string]string{"HTTP": "http", "HTTPS": "https", "TLS": "tls", "TCP": "tcp", "UDP": "udp"}[string(l.Protocol)]
	if c.grpc {
		scheme = map[string]string{"HTTP": "grpc", "HTTPS": "grpcs"}[string(l.Protocol)]
	}
	if r := c.sniRoute; r != nil {
		routes := g.FindRoutes(resolve.KindTLSRoute, r.Namespace, r.Name)
		if len(routes) != 1 || len(routes[0].Hostnames) == 0 {
			return fmt.Sprintf("the SNI is the first hostname of TLSRoute %s, which is not among the test's manifests", r.NamespacedName()), ""
		}
		host = string(routes[0].Hostnames[0])
	}
	if host == "" {
		host = gatewayAddress
	}
	target := c.path
	switch {
	case c.grpc:
		target = "/" + grpcEchoService + "/" + c.grpcMethod
	case scheme == "tls" || scheme == "tcp" || scheme == "udp":
		// A connection has no path; tcp:// and udp:// name their port.
		target = ""
		host = net.JoinHostPort(host, strconv.Itoa(int(port)))
	}
	req, err := ParseRequestURL(scheme + "://" + host + target)
	if err != nil {
		return "harness: " + err.Error(), ""
	}
	req.Port, req.Gateway = port, &c.gateway
	if !req.Stream() {
		req.Method, req.Headers = c.method, c.headers
	}
	tracer := New(g)
	if problem := destinationMismatch(tracer, req); problem != "" {
		t.Errorf("%s: %s", req, problem)
	}
	return c.compare(tracer.Trace(req)), ""
}

func (c *trafficCase) compare(tr *Result) string {
	got := describeTrace(tr)
	if c.failure {
		if tr.Outcome == Forwarded || tr.StatusCode != 0 {
			return "want the connection to fail, got " + got
		}
		return ""
	}
	if c.backend != "" {
		if tr.Outcome != Forwarded {
			return fmt.Sprintf("want backend %s/%s, got %s", c.namespace, c.backend, got)
		}
		for _, b := range tr.Rule.Backends {
			if b.Target.Name == c.backend && (c.namespace == "" || b.Target.Namespace == c.namespace) && b.Valid() && b.Share > 0 {
				return c.compareRewrite(tr)
			}
		}
		return fmt.Sprintf("want backend %s/%s, got %s", c.namespace, c.backend, got)
	}
	status := tr.StatusCode
	if tr.Outcome == Forwarded {
		status = 200
	}
	if !slices.Contains(c.statuses, status) {
		return fmt.Sprintf("want status %v, got %s", c.statuses, got)
	}
	if c.redirect != nil && tr.Redirect != nil {
		r := tr.Redirect
		port := ""
		if r.Port != 0 {
			port = strconv.Itoa(int(r.Port))
		}
		w := *c.redirect
		if w.scheme == "" {
			w.scheme = tr.Request.Scheme
		}
		if w.path == "" {
			w.path = tr.Request.Path
		}
		if w.host != "" && w.host != r.Hostname || w.scheme != r.Scheme || w.path != r.Path || w.port != "" && w.port != port {
			return fmt.Sprintf("want redirect to %+v, got %s", w, r)
		}
	}
	return ""
}

func (c *trafficCase) compareRewrite(tr *Result) string {
	if c.rewrite == nil {
		return ""
	}
	host, path := tr.Request.Host, tr.Request.Path
	if tr.Rewrite != nil {
		host, path = tr.Rewrite.Host, tr.Rewrite.Path
	}
	if c.rewrite.path != "" && c.rewrite.path != path || c.rewrite.host != "" && c.rewrite.host != host {
		return fmt.Sprintf("want the backend to see host %q path %q, got %q %q", c.rewrite.host, c.rewrite.path, host, path)
	}
	return ""
}

func describeTrace(tr *Result) string {
	s := string(tr.Outcome)
	if tr.StatusCode != 0 {
		s += fmt.Sprintf(" %d", tr.StatusCode)
	}
	if w := tr.Winner(); w != nil {
		s += fmt.Sprintf(" by %s %s", w.Route.Ref, w.Path)
	}
	if tr.Rule != nil {
		var bs []string
		for _, b := range tr.Rule.Backends {
			bs = append(bs, fmt.Sprintf("%s(%.2f valid=%v)", b.Target.NamespacedName(), b.Share, b.Valid()))
		}
		s += " to [" + strings.Join(bs, " ") + "]"
	}
	if tr.Redirect != nil {
		s += " → " + tr.Redirect.String()
	}
	return s + ": " + tr.Message
}

// traceMutations are the objects a test deletes before sending a request,
// by case: the suite does it in Go, which the source scan does not follow.
var traceMutations = map[string][]string{
	// tests/httproute-reference-grant.go: suite.Client.Delete(ctx, &rg).
	"HTTPRouteReferenceGrant/1": {"ReferenceGrant gateway-conformance-web-backend/reference-grant"},
}

var graphCache = map[string]*resolve.Graph{}

// conformanceGraph resolves what the suite applies for one test: the base
// manifests, the test's own, and what suite.Setup creates, less the
// objects named in remove.
func conformanceGraph(t *testing.T, dir string, manifests, remove []string) *resolve.Graph {
	key := strings.Join(manifests, ",") + "-" + strings.Join(remove, ",")
	if g, ok := graphCache[key]; ok {
		return g
	}
	paths := []string{filepath.Join(dir, "base", "manifests.yaml")}
	for _, m := range manifests {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(m)))
	}
	paths = append(paths, conformancetest.SuiteObjects("../testdata/conformance")...)
	opts := resolve.Options{ControllerName: conformancetest.Controller, OwnedNamespaces: conformancetest.Namespaces}
	in := resolve.Load(paths, nil, opts)
	if len(in.Errors) > 0 {
		t.Fatalf("read errors:%s", conformancetest.ReadErrors(in.Errors))
	}
	if len(remove) > 0 {
		in = conformancetest.Mutate(t, in, opts, nil, remove)
	}
	g := resolve.Resolve(in, opts)
	graphCache[key] = g
	return g
}

// --------------------------------------------------------------------------
// Reading the expectations from the conformance tests' source.

// loadTrafficCases reads every ExpectedResponse literal of tests/*.go.
func loadTrafficCases(t *testing.T, dir string) []trafficCase {
	t.Helper()
	fset := token.NewFileSet()
	consts := map[string]ast.Expr{}
	suiteFile, err := parser.ParseFile(fset, filepath.Join(dir, "utils", "suite", "consts.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	collectConsts(suiteFile, consts)
	files, _ := filepath.Glob(filepath.Join(dir, "tests", "*.go"))
	sort.Strings(files)
	var parsed []*ast.File
	pkg := map[string]ast.Expr{} // the tests package's own constants
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		collectConsts(af, pkg)
		parsed = append(parsed, af)
	}
	var out []trafficCase
	for _, af := range parsed {
		for _, decl := range af.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, v := range vs.Values {
					if lit, ok := v.(*ast.CompositeLit); ok && typeName(lit.Type) == "ConformanceTest" {
						out = append(out, testCases(fset, dir, lit, &evaluator{suite: consts, pkg: pkg})...)
					}
				}
			}
		}
	}
	return out
}

func collectConsts(f *ast.File, into map[string]ast.Expr) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || (gd.Tok != token.CONST && gd.Tok != token.VAR) {
			continue
		}
		for _, spec := range gd.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok || len(vs.Values) != len(vs.Names) {
				continue
			}
			for i, n := range vs.Names {
				into[n.Name] = vs.Values[i]
			}
		}
	}
}

// typeName is the name of a (possibly qualified) type: "ExpectedResponse".
func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// qualifier is the package of a qualified type: "http" for http.X.
func qualifier(e ast.Expr) string {
	if s, ok := e.(*ast.SelectorExpr); ok {
		if id, ok := s.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}

// binding is one assignment in a test function, in source order.
type binding struct {
	pos  token.Pos
	expr ast.Expr
}

// evaluator computes the static value of an expression at a position in a
// test function: literals, constants of the suite and the tests package,
// and the test's own variables as last assigned before that position.
type evaluator struct {
	suite, pkg  map[string]ast.Expr
	local       map[string][]binding
	conditional map[string]bool // variables also assigned in a branch
}

type dynamicError struct{ what string }

func (e *dynamicError) Error() string { return "computed at run time: " + e.what }

// lookup finds the value name was last given before pos, and where: an
// expression in it is evaluated as of that position.
func (ev *evaluator) lookup(name string, pos token.Pos) (ast.Expr, token.Pos) {
	found := binding{pos: token.NoPos, expr: ev.pkg[name]}
	for _, b := range ev.local[name] {
		if b.pos < pos {
			found = b
		}
	}
	return found.expr, found.pos
}

func (ev *evaluator) str(e ast.Expr, pos token.Pos) (string, error) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			return strconv.Unquote(x.Value)
		}
	case *ast.Ident:
		if v, at := ev.lookup(x.Name, pos); v != nil {
			return ev.str(v, at)
		}
	case *ast.SelectorExpr:
		if v, ok := ev.suite[x.Sel.Name]; ok {
			return ev.str(v, pos)
		}
	case *ast.CallExpr: // string(ns), v1.Namespace(ns)
		if isConversion(x) {
			return ev.str(x.Args[0], pos)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			a, err := ev.str(x.X, pos)
			if err != nil {
				return "", err
			}
			b, err := ev.str(x.Y, pos)
			return a + b, err
		}
	case *ast.ParenExpr:
		return ev.str(x.X, pos)
	}
	return "", &dynamicError{exprString(e)}
}

// isConversion reports whether call converts a value to a string type:
// string(x), or a Gateway API string type such as v1.Namespace(x).
func isConversion(call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name == "string"
	case *ast.SelectorExpr:
		pkg := qualifier(f)
		return pkg == "v1" || pkg == "gatewayv1" || pkg == "gwv1"
	}
	return false
}

func (ev *evaluator) integer(e ast.Expr, pos token.Pos) (int, error) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.INT {
			return strconv.Atoi(x.Value)
		}
	case *ast.Ident:
		if v, at := ev.lookup(x.Name, pos); v != nil {
			return ev.integer(v, at)
		}
	}
	return 0, &dynamicError{exprString(e)}
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.CallExpr:
		return exprString(x.Fun) + "(...)"
	case *ast.IndexExpr:
		return exprString(x.X) + "[...]"
	case *ast.BasicLit:
		return x.Value
	}
	return fmt.Sprintf("%T", e)
}

// fields maps a composite literal's keys to their values.
func fields(lit *ast.CompositeLit) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok {
				out[k.Name] = kv.Value
			}
		}
	}
	return out
}

// compositeOf unwraps &T{...} and T{...}.
func compositeOf(e ast.Expr) *ast.CompositeLit {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// testCases reads one ConformanceTest's traffic expectations.
func testCases(fset *token.FileSet, dir string, test *ast.CompositeLit, ev *evaluator) []trafficCase {
	f := fields(test)
	short, _ := ev.str(f["ShortName"], token.NoPos)
	var manifests []string
	if ml := compositeOf(f["Manifests"]); ml != nil {
		for _, m := range ml.Elts {
			if s, err := ev.str(m, token.NoPos); err == nil {
				manifests = append(manifests, s)
			}
		}
	}
	body, ok := f["Test"].(*ast.FuncLit)
	if !ok {
		return nil
	}
	ev = &evaluator{suite: ev.suite, pkg: ev.pkg, local: map[string][]binding{}, conditional: map[string]bool{}}
	// sends are the calls that send requests: http.MakeRequest...,
	// tls.MakeTLSRequest..., grpc.MakeRequest...; their fourth argument is
	// the Gateway's address.
	var sends []*ast.CallExpr
	type found struct {
		lit *ast.CompositeLit
		pkg string // the package of ExpectedResponse: http, grpc, tcp, udp
	}
	var lits []found
	var rejections []*ast.CallExpr
	// branches counts the if and switch statements around the node: an
	// assignment in one is conditional, and not a value the scan can know.
	var stack []ast.Node
	branches := 0
	ast.Inspect(body.Body, func(n ast.Node) bool {
		if n == nil {
			switch stack[len(stack)-1].(type) {
			case *ast.IfStmt, *ast.SwitchStmt:
				branches--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch x := n.(type) {
		case *ast.IfStmt, *ast.SwitchStmt:
			branches++
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				id, ok := l.(*ast.Ident)
				switch {
				case !ok:
				case branches > 0:
					ev.conditional[id.Name] = true
				case len(x.Lhs) == len(x.Rhs):
					ev.local[id.Name] = append(ev.local[id.Name], binding{x.Pos(), x.Rhs[i]})
				case len(x.Rhs) == 1: // gwAddr, hostnames := f(...)
					ev.local[id.Name] = append(ev.local[id.Name], binding{x.Pos(), x.Rhs[0]})
				}
			}
		case *ast.ValueSpec:
			for i, id := range x.Names {
				if i < len(x.Values) {
					ev.local[id.Name] = append(ev.local[id.Name], binding{x.Pos(), x.Values[i]})
				}
			}
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && isSend(sel.Sel.Name) && len(x.Args) > 3 {
				sends = append(sends, x)
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == rejectionCall && len(x.Args) == 4 {
				rejections = append(rejections, x)
			}
		case *ast.CompositeLit:
			switch {
			case typeName(x.Type) == "ExpectedResponse":
				lits = append(lits, found{x, qualifier(x.Type)})
				return true
			case isSliceOf(x.Type, "ExpectedResponse"):
				pkg := qualifier(x.Type.(*ast.ArrayType).Elt)
				for _, e := range x.Elts {
					if lit := compositeOf(e); lit != nil && lit.Type == nil {
						lits = append(lits, found{lit, pkg})
					}
				}
			}
		}
		return true
	})
	var out []trafficCase
	for i, l := range lits {
		pos := fset.Position(l.lit.Pos())
		rel, _ := filepath.Rel(dir, pos.Filename)
		c := trafficCase{test: short, name: fmt.Sprintf("%s/%d", short, i), source: fmt.Sprintf("%s:%d", rel, pos.Line),
			manifests: manifests, grpc: l.pkg == "grpc"}
		// The call that sends it: the one it is written in, else the
		// first after it (a table sent in a loop).
		var send *ast.CallExpr
		for _, call := range sends {
			inside := call.Pos() <= l.lit.Pos() && l.lit.End() <= call.End()
			if inside || send == nil && call.Pos() > l.lit.End() {
				send = call
			}
		}
		if err := c.read(ev, send, l.lit, l.pkg); err != nil {
			c.skip = err.Error()
		}
		out = append(out, c)
	}
	for i, call := range rejections {
		pos := fset.Position(call.Pos())
		rel, _ := filepath.Rel(dir, pos.Filename)
		c := trafficCase{test: short, name: fmt.Sprintf("%s/rejected/%d", short, i), source: fmt.Sprintf("%s:%d", rel, pos.Line),
			manifests: manifests, failure: true}
		if err := c.readRejection(ev, call); err != nil {
			c.skip = err.Error()
		}
		out = append(out, c)
	}
	return out
}

// rejectionCall is the suite's assertion that a TLS connection with an SNI
// is rejected: (t, timeoutConfig, gwAddr, serverName).
const rejectionCall = "MakeTLSConnectionAndExpectEventuallyConnectionRejection"

func (c *trafficCase) readRejection(ev *evaluator, call *ast.CallExpr) error {
	if err := c.readGateway(ev, call.Args[2], call.Pos()); err != nil {
		return err
	}
	return c.readSNI(ev, call.Args[3], call.Pos())
}

// readSNI reads the server name a TLS connection sends: a literal, or the
// first hostname that kubernetes.GatewayAndTLSRoutesMustBeAccepted returned
// for a route (string(hostnames[0])).
func (c *trafficCase) readSNI(ev *evaluator, e ast.Expr, pos token.Pos) error {
	if s, err := ev.str(e, pos); err == nil {
		c.host = s
		return nil
	}
	for {
		switch x := e.(type) {
		case *ast.Ident:
			v, at := ev.lookup(x.Name, pos)
			if v == nil {
				return &dynamicError{"the SNI " + x.Name}
			}
			e, pos = v, at
			continue
		case *ast.CallExpr:
			if isConversion(x) {
				e = x.Args[0]
				continue
			}
		case *ast.IndexExpr:
			id, ok := x.X.(*ast.Ident)
			if !ok || exprString(x.Index) != "0" {
				break
			}
			v, at := ev.lookup(id.Name, pos)
			call, ok := v.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 || typeName(call.Fun) != "GatewayAndTLSRoutesMustBeAccepted" {
				break
			}
			route, err := ev.namespacedName(call.Args[len(call.Args)-1], at)
			if err != nil {
				return err
			}
			route.Kind = resolve.KindTLSRoute
			c.sniRoute = route
			return nil
		}
		return &dynamicError{"the SNI " + exprString(e)}
	}
}

// namespacedName evaluates a types.NamespacedName literal, or a variable
// holding one.
func (ev *evaluator) namespacedName(e ast.Expr, pos token.Pos) (*resolve.ObjectRef, error) {
	if id, ok := e.(*ast.Ident); ok {
		v, at := ev.lookup(id.Name, pos)
		e, pos = v, at
	}
	lit := compositeOf(e)
	if lit == nil {
		return nil, &dynamicError{"the object " + exprString(e)}
	}
	f := fields(lit)
	name, err := ev.str(f["Name"], pos)
	if err != nil {
		return nil, err
	}
	ns, err := ev.str(f["Namespace"], pos)
	return &resolve.ObjectRef{Namespace: ns, Name: name}, err
}

// portFromHost marks an address chosen at run time among several: the
// tests that do so choose by the port in the request's Host.
const portFromHost = "from Host"

// address follows a Gateway address to the kubernetes.NewGatewayRef it
// was obtained with, and the port net.JoinHostPort gave it ("" when the
// suite's default, the first or named listener's, applies).
func (ev *evaluator) address(e ast.Expr, pos token.Pos) (ref *ast.CallExpr, port string, err error) {
	switch x := e.(type) {
	case *ast.Ident:
		if v, at := ev.lookup(x.Name, pos); v != nil {
			ref, port, err := ev.address(v, at)
			if ev.conditional[x.Name] {
				port = portFromHost
			}
			return ref, port, err
		}
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "SplitHostPort" && len(x.Args) == 1 {
			ref, _, err := ev.address(x.Args[0], pos)
			return ref, "", err
		}
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "JoinHostPort" && len(x.Args) == 2 {
			ref, _, err := ev.address(x.Args[0], pos)
			if err != nil {
				return nil, "", err
			}
			port, err := ev.str(x.Args[1], pos)
			return ref, port, err
		}
		ast.Inspect(x, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && ref == nil {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewGatewayRef" {
					ref = call
				}
			}
			return ref == nil
		})
		if ref != nil {
			return ref, "", nil
		}
	}
	return nil, "", &dynamicError{"the Gateway address " + exprString(e)}
}

// isSend reports whether a conformance helper sends a request and checks
// the response: http.MakeRequestAndExpect..., tls.MakeTLSRequestAndExpect...,
// grpc.MakeRequestAndExpect..., tcp.MakeTCPRequestAndExpect...,
// udp.ExpectEchoResponseFromBackend (http.MakeRequest only builds one).
func isSend(name string) bool {
	return strings.HasPrefix(name, "MakeRequestAndExpect") || strings.HasPrefix(name, "MakeTLSRequestAndExpect") ||
		strings.HasPrefix(name, "MakeTCPRequestAndExpect") || name == "ExpectEchoResponseFromBackend"
}

// sendAddress is the index of the Gateway address among a send call's
// arguments: the tcp and udp helpers take no round tripper before it.
func sendAddress(name string) int {
	if strings.HasPrefix(name, "MakeTCPRequest") || name == "ExpectEchoResponseFromBackend" || strings.HasPrefix(name, "MakeTLSRequestAndExpectFailure") {
		return 2
	}
	return 3
}

func isSliceOf(e ast.Expr, name string) bool {
	at, ok := e.(*ast.ArrayType)
	return ok && typeName(at.Elt) == name
}

// readGateway reads the Gateway, listener and port that the address addr
// (an argument of the call at pos) was obtained for.
func (c *trafficCase) readGateway(ev *evaluator, addr ast.Expr, pos token.Pos) error {
	ref, port, err := ev.address(addr, pos)
	if err != nil {
		return err
	}
	c.port = port
	nn := compositeOf(ref.Args[0])
	if nn == nil {
		if id, ok := ref.Args[0].(*ast.Ident); ok {
			v, _ := ev.lookup(id.Name, ref.Pos())
			nn = compositeOf(v)
		}
	}
	if nn == nil {
		return &dynamicError{"the Gateway " + exprString(ref.Args[0])}
	}
	gf := fields(nn)
	if c.gateway.Name, err = ev.str(gf["Name"], ref.Pos()); err != nil {
		return err
	}
	if c.gateway.Namespace, err = ev.str(gf["Namespace"], ref.Pos()); err != nil {
		return err
	}
	c.gateway.Kind = resolve.KindGateway
	if len(ref.Args) > 1 {
		if c.listener, err = ev.str(ref.Args[1], ref.Pos()); err != nil {
			return err
		}
	}
	return nil
}

// read fills the case from its literal, of package pkg's ExpectedResponse,
// sent by send.
func (c *trafficCase) read(ev *evaluator, send *ast.CallExpr, lit *ast.CompositeLit, pkg string) error {
	pos := lit.Pos()
	if send == nil {
		return fmt.Errorf("no call sends it")
	}
	name := send.Fun.(*ast.SelectorExpr).Sel.Name
	if strings.Contains(name, "Failure") {
		c.failure = true
		// tls.MakeTLSRequestAndExpectFailureResponse(t, r, addr, serverCert, clientCert, clientKey, serverName, expected)
		if len(send.Args) == 8 && exprString(send.Args[4]) != "nil" {
			return fmt.Errorf("expects the Gateway to refuse a client certificate, which Trace does not model")
		}
	}
	if err := c.readGateway(ev, send.Args[sendAddress(name)], send.Pos()); err != nil {
		return err
	}
	var err error
	f := fields(lit)
	str := func(e ast.Expr) string {
		if e == nil || err != nil {
			return ""
		}
		var s string
		s, err = ev.str(e, pos)
		return s
	}
	headers := func(e ast.Expr) []NameValue {
		m := compositeOf(e)
		if e == nil || err != nil {
			return nil
		}
		if m == nil {
			err = &dynamicError{"headers " + exprString(e)}
			return nil
		}
		var out []NameValue
		for _, kv := range m.Elts {
			kv := kv.(*ast.KeyValueExpr)
			out = append(out, NameValue{Name: str(kv.Key), Value: str(kv.Value)})
		}
		return out
	}
	c.backend, c.namespace = str(f["Backend"]), str(f["Namespace"])
	switch pkg {
	case "tcp":
		// tcp.MakeTCPRequestAndExpect...(t, timeoutConfig, gwAddr, serverCertificate, serverName, useTLS, expected)
		if exprString(send.Args[5]) == "true" {
			if err := c.readSNI(ev, send.Args[4], send.Pos()); err != nil {
				return err
			}
		}
		return err
	case "udp":
		c.backend = str(f["Service"])
		return err
	}
	if c.grpc {
		for _, m := range []string{"EchoRequest", "EchoTwoRequest", "EchoThreeRequest"} {
			if f[m] != nil {
				c.grpcMethod = strings.TrimSuffix(m, "Request")
			}
		}
		if md := compositeOf(f["RequestMetadata"]); md != nil {
			mf := fields(md)
			c.host, c.headers = str(mf["Authority"]), headers(mf["Metadata"])
		}
		c.statuses = []int{200}
		if r := compositeOf(f["Response"]); r != nil {
			switch code := fields(r)["Code"]; exprString(code) {
			case "codes.OK":
			case "codes.Unimplemented": // what a 404 is to gRPC
				c.statuses, c.backend = []int{404}, ""
			default:
				return fmt.Errorf("expects gRPC status %s, which Trace does not model", exprString(code))
			}
		}
		return err
	}
	rf := compositeOf(f["Request"])
	if rf == nil {
		return &dynamicError{"the request"}
	}
	req := fields(rf)
	c.host, c.path, c.method, c.headers = str(req["Host"]), str(req["Path"]), str(req["Method"]), headers(req["Headers"])
	for _, k := range []string{"SNI", "ClientCert"} {
		if req[k] != nil {
			return fmt.Errorf("request sets %s, which Trace does not model", k)
		}
	}
	if c.path == "" {
		c.path = "/"
	}
	if r := compositeOf(f["Response"]); r != nil {
		rf := fields(r)
		if s := rf["StatusCode"]; s != nil {
			n, e := ev.integer(s, pos)
			if e != nil {
				return e
			}
			c.statuses = append(c.statuses, n)
		}
		if ss := compositeOf(rf["StatusCodes"]); ss != nil {
			for _, s := range ss.Elts {
				n, e := ev.integer(s, pos)
				if e != nil {
					return e
				}
				c.statuses = append(c.statuses, n)
			}
		}
		for _, k := range []string{"Headers", "ValidHeaderValues", "AbsentHeaders"} {
			if rf[k] != nil && c.backend == "" {
				return fmt.Errorf("expects response headers, which Trace does not model")
			}
		}
	}
	if len(c.statuses) == 0 {
		c.statuses = []int{200}
	}
	if r := compositeOf(f["RedirectRequest"]); r != nil {
		rf := fields(r)
		c.redirect = &redirectWant{scheme: str(rf["Scheme"]), host: str(rf["Host"]), port: str(rf["Port"]), path: str(rf["Path"])}
	}
	if r := compositeOf(f["ExpectedRequest"]); r != nil {
		if inner := compositeOf(fields(r)["Request"]); inner != nil {
			rf := fields(inner)
			c.rewrite = &rewriteWant{host: str(rf["Host"]), path: str(rf["Path"])}
		}
	}
	if !slices.Contains(c.statuses, 200) {
		c.backend = "" // the suite checks the backend only of a 200
	}
	for _, code := range c.statuses {
		if code == 502 || code == 503 || code == 504 {
			return fmt.Errorf("expects status %d, which depends on the live backend (timeouts, retries)", code)
		}
	}
	return err
}
