package corpus

// Generate is the original generator's main(), with its flags as Options.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Size is a preset corpus size.
type Size string

const (
	Small  Size = "small"  // 100 HTTPRoutes
	Medium Size = "medium" // 10,000 HTTPRoutes
	Large  Size = "large"  // 100,000 HTTPRoutes
)

// Routes is the number of HTTPRoutes of the preset size ("" is Small);
// false for an unknown size.
func (s Size) Routes() (int, bool) {
	switch s {
	case "", Small:
		return 100, true
	case Medium:
		return 10000, true
	case Large:
		return 100000, true
	}
	return 0, false
}

// Options are the original generator's flags. The zero value is what the
// flags default to except Seed (flag default 1; 0 is a valid seed here, use
// DefaultOptions) and the counts, where negative means "derive" as the flag
// default -1 does: use DefaultOptions and override fields.
type Options struct {
	Size         Size    // -size: "" or Small, Medium, Large
	Seed         uint64  // -seed (flag default 1)
	Routes       int     // -routes; < 0: from Size
	Gateways     int     // -gateways; <= 0: max(3, routes/500)
	Services     int     // -services; <= 0: max(1, routes*6/5)
	Namespaces   int     // -namespaces (flag default 50)
	InvalidRate  float64 // -invalid-rate
	SemanticRate float64 // -semantic-rate
}

// DefaultOptions returns the flag defaults for a preset size.
func DefaultOptions(size Size) Options {
	return Options{Size: size, Seed: 1, Routes: -1, Gateways: -1, Services: -1, Namespaces: 50}
}

// Stats describes a written corpus.
type Stats struct {
	Files      int
	Bytes      int64
	Objects    int
	Counts     map[string]int // objects by kind
	Invalid    int            // lines of EXPECTED_INVALID.txt
	Semantic   int            // lines of EXPECTED_SEMANTIC.txt
	SemSkipped int            // routes picked by SemanticRate that admitted no injection
}

// Summary is the line the original command prints on stdout (with its newline).
func (s Stats) Summary() string {
	var parts []string
	for _, k := range sortedKeys(s.Counts) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, s.Counts[k]))
	}
	return fmt.Sprintf("wrote %d files, %d bytes (%.1f MB), %d objects: %s; invalid=%d semantic=%d\n", s.Files, s.Bytes, float64(s.Bytes)/1e6, s.Objects, strings.Join(parts, " "), s.Invalid, s.Semantic)
}

// ErrUsage wraps errors the original reported with exit status 2.
var ErrUsage = errors.New("usage")

// Generate writes the corpus into out, which must not exist or be empty.
func Generate(opts Options, out string) (st Stats, err error) {
	if out == "" {
		return st, fmt.Errorf("%w: -out required", ErrUsage)
	}
	R, ok := opts.Size.Routes()
	if !ok {
		return st, fmt.Errorf("%w: bad -size", ErrUsage)
	}
	if opts.Routes >= 0 {
		R = opts.Routes
	}
	G := max(3, R/500)
	if opts.Gateways > 0 {
		G = opts.Gateways
	}
	S := max(1, R*6/5)
	if opts.Services > 0 {
		S = opts.Services
	}
	if opts.Namespaces < 1 {
		return st, fmt.Errorf("%w: -namespaces must be >= 1", ErrUsage)
	}
	if ents, err := os.ReadDir(out); err == nil && len(ents) > 0 {
		return st, fmt.Errorf("%w: output directory not empty: %s", ErrUsage, out)
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("corpus: %v", v)
		}
	}()
	g := &gen{
		r: rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15)), seed: opts.Seed, out: out,
		nsByName: map[string]*nsInfo{}, gwByKey: map[string]*gateway{}, admissible: map[string][]attach{},
		svcByKey: map[string]*service{}, need: map[string]map[string]map[string]bool{}, grants: map[string][]grantRule{},
		invRate: opts.InvalidRate, semRate: opts.SemanticRate, counts: map[string]int{},
	}
	g.run(R, G, S, opts.Namespaces)
	st = Stats{Files: g.files, Bytes: g.bytes, Counts: g.counts, Invalid: len(g.invalid), Semantic: len(g.semantics), SemSkipped: g.semSkipped}
	for _, n := range g.counts {
		st.Objects += n
	}
	return st, nil
}

// run is the body of the original main() after flag handling, unchanged but
// for the names of the flag variables.
func (g *gen) run(R, G, S, nNS int) {
	g.makeNamespaces(nNS)

	// gateways: one file each under infra/<ns>/, several per namespace
	for i := 0; i < G; i++ {
		gw := g.makeGateway(i)
		g.gateways = append(g.gateways, gw)
		g.gwByKey[gw.ns+"/"+gw.name] = gw
		g.nsByName[gw.ns].used = true
	}
	for _, ns := range g.nss {
		for _, gw := range g.gateways {
			for _, l := range gw.listeners {
				if l.allowsHTTPRoute() && g.nsAllowed(gw, l, ns.name) {
					g.admissible[ns.name] = append(g.admissible[ns.name], attach{gw, l})
				}
			}
		}
	}
	if slices.ContainsFunc(g.nss, func(ns *nsInfo) bool { return len(g.admissible[ns.name]) == 0 }) {
		// some namespace could attach nowhere: open the first listener to all of them
		l := g.gateways[0].listeners[0]
		l.from, l.omitNS, l.sel, l.kinds = "All", false, nil, nil
		for _, ns := range g.nss {
			if !slices.Contains(g.admissible[ns.name], attach{g.gateways[0], l}) {
				g.admissible[ns.name] = append(g.admissible[ns.name], attach{g.gateways[0], l})
			}
		}
	}
	usedClass := map[string]bool{}
	var sharedCerts, certFroms []string
	for _, gw := range g.gateways {
		usedClass[gw.class] = true
		g.addFile(filepath.Join("infra", gw.ns, gw.name+".yaml"), []*doc{g.gatewayDoc(gw)})
		var secrets []*doc
		for _, l := range gw.listeners {
			if !l.tls {
				continue
			}
			if name := g.certName(gw, l); !gw.sharedCert {
				secrets = append(secrets, g.secretDoc(name, gw.ns))
			} else if !slices.Contains(sharedCerts, name) {
				sharedCerts = append(sharedCerts, name)
				if !slices.Contains(certFroms, gw.ns) {
					certFroms = append(certFroms, gw.ns)
				}
			}
		}
		if len(secrets) > 0 {
			g.addFile(filepath.Join("infra", gw.ns, gw.name+"-tls.yaml"), secrets)
		}
	}
	var cdocs []*doc
	for _, c := range classes {
		if usedClass[c.name] {
			obj := M{{"apiVersion", "gateway.networking.k8s.io/v1"}, {"kind", "GatewayClass"}, {"metadata", meta(c.name, "", nil, nil)}, {"spec", M{{"controllerName", c.controller}}}}
			cdocs = append(cdocs, g.newDoc(obj, "GatewayClass", "", c.name))
		}
	}
	g.addFile(filepath.Join("infra", "gatewayclasses.yaml"), cdocs)
	if len(sharedCerts) > 0 {
		g.addFile(filepath.Join("infra", certNS, "namespace.yaml"), []*doc{g.namespaceDoc(certNS, M{{"team", "platform"}})})
		var sdocs, gdocs []*doc
		for _, s := range sharedCerts {
			sdocs = append(sdocs, g.secretDoc(s, certNS))
		}
		g.addFile(filepath.Join("infra", certNS, "secrets.yaml"), sdocs)
		sort.Strings(certFroms)
		for _, f := range certFroms {
			gdocs = append(gdocs, g.grantDoc("allow-gateways-from-"+f, certNS, L{M{{"group", gwGroup}, {"kind", "Gateway"}, {"namespace", f}}}, L{M{{"group", ""}, {"kind", "Secret"}}}))
			g.grants[certNS] = append(g.grants[certNS], grantRule{"Gateway", f, "Secret", ""})
		}
		g.addFile(filepath.Join("infra", certNS, "referencegrants.yaml"), gdocs)
	}

	// apps: each with 1-8 routes and a share of the services
	remainingR, remainingS := R, S
	for i := 0; remainingR > 0; i++ {
		ns := g.nss[g.pick(len(g.nss))]
		ns.used = true
		a := &app{ns: ns.name, name: fmt.Sprintf("%s-%d", g.word(), i)}
		a.nroutes = min(remainingR, g.between(1, 8))
		remainingR -= a.nroutes
		ns_ := max(1, min(remainingS, (a.nroutes*S+R-1)/R))
		if remainingR == 0 {
			ns_ = max(1, remainingS)
		}
		remainingS -= ns_
		for j := 0; j < ns_; j++ {
			var ports []int
			np := g.between(1, 3)
			base := []int{80, 8080, 9090, 3000, 5000}[g.pick(5)]
			for k := 0; k < np; k++ {
				ports = append(ports, base+k)
			}
			s := &service{ns: ns.name, name: fmt.Sprintf("%s-svc-%d", a.name, j), ports: ports}
			a.services = append(a.services, s)
			g.svcByKey[s.ns+"/"+s.name] = s
		}
		g.apps = append(g.apps, a)
	}
	for _, a := range g.apps {
		dir := filepath.Join("namespaces", a.ns, a.name)
		var sdocs []*doc
		for _, s := range a.services {
			sdocs = append(sdocs, g.makeService(s, a.ns))
		}
		g.addFile(filepath.Join(dir, "services.yaml"), sdocs)
		var rdocs []*doc
		for k := 0; k < a.nroutes; k++ {
			rdocs = append(rdocs, g.makeRoute(a, k))
		}
		if g.chance(0.5) {
			g.addFile(filepath.Join(dir, "httproutes.yaml"), rdocs)
		} else {
			for k, d := range rdocs {
				g.addFile(filepath.Join(dir, "routes", fmt.Sprintf("route-%d.yaml", k)), []*doc{d})
			}
		}
	}
	g.routeGrants()
	for _, ns := range g.nss {
		if ns.used {
			g.addFile(filepath.Join("namespaces", ns.name, "namespace.yaml"), []*doc{g.namespaceDoc(ns.name, ns.labels)})
		}
	}

	// semantic injections, now that the whole world (grants included) is known
	for _, f := range g.pending {
		for _, d := range f.docs {
			if d.pend != nil {
				g.injectSemantic(d)
			}
		}
		g.writeFile(f)
	}

	for name, lines := range map[string][]string{"EXPECTED_INVALID.txt": g.invalid, "EXPECTED_SEMANTIC.txt": g.semantics} {
		if len(lines) > 0 {
			sort.Strings(lines)
			if err := os.WriteFile(filepath.Join(g.out, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				panic(err)
			}
		}
	}
}
