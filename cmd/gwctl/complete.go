package main

import (
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
)

// kubectl's spellings: `gwctl explain httproute NAME` is `gwctl explain
// route NAME --kind HTTPRoute` (commands of their own: see
// newExplainRouteKindCmd), `gw` is gateway, `svc` is service (cobra
// aliases).
var (
	routeSpellings = map[string]string{
		"httproute": resolve.KindHTTPRoute, "httproutes": resolve.KindHTTPRoute,
		"grpcroute": resolve.KindGRPCRoute, "grpcroutes": resolve.KindGRPCRoute,
		"tlsroute": resolve.KindTLSRoute, "tlsroutes": resolve.KindTLSRoute,
		"tcproute": resolve.KindTCPRoute, "tcproutes": resolve.KindTCPRoute,
		"udproute": resolve.KindUDPRoute, "udproutes": resolve.KindUDPRoute,
	}
	gatewayAliases = []string{"gw", "gateways"}
	serviceAliases = []string{"svc", "services"}
)

// explainKinds is the kind each explain subcommand built by explainCmd
// looks up, for completion.
var explainKinds = map[string]string{"gateway": resolve.KindGateway, "service": resolve.KindService, "policy": anyPolicy}

// anyPolicy stands, among the kinds to complete, for every policy kind
// (resolve.PolicyObject).
const anyPolicy = "*policy*"

// completeNames completes the NAME of an explain subcommand: the names of
// the objects of the kinds that kinds returns (all route kinds when it
// returns none) in the -f inputs, in the -n namespace when it is given
// (any namespace otherwise, as the lookup does). Flags are parsed before
// cobra calls it, so in holds them. Stdin is never read, and files that
// fail to read are passed over silently: completion must not print. A
// name that cli.Escape would change is left out, since the shell would
// read its line breaks and tabs as the end of a completion, and the
// descriptions are escaped.
func completeNames(in *inputOptions, kinds func(*cobra.Command) []string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		want := kinds(cmd)
		if len(want) == 0 {
			want = routeKinds
		}
		files := slices.DeleteFunc(slices.Clone(in.Filenames), func(f string) bool { return f == "-" })
		ch, err := crd.ParseChannel(in.Channel)
		if err != nil {
			ch, _ = crd.ParseChannel("standard")
		}
		inputs, _ := cli.FindInputs(files, func(string) bool { return false }, nil)
		inputs.Values = in.Values
		loaded := inputs.LoadOne(strings.NewReader(""), resolve.Options{DefaultNamespace: in.Namespace, Channel: ch})
		// name → the namespaced refs of that name, for the description.
		where := map[string][]string{}
		for _, obj := range loaded.Objects {
			ref := obj.Metadata().Ref
			_, policy := obj.(resolve.PolicyObject)
			if !slices.Contains(want, ref.Kind) && !(policy && slices.Contains(want, anyPolicy)) || !strings.HasPrefix(ref.Name, toComplete) || cli.Escape(ref.Name) != ref.Name ||
				(in.Namespace != "" && ref.Namespace != in.Namespace) {
				continue
			}
			desc := cli.Escape(ref.String())
			if !slices.Contains(where[ref.Name], desc) {
				where[ref.Name] = append(where[ref.Name], desc)
			}
		}
		var out []cobra.Completion
		for _, name := range slices.Sorted(maps.Keys(where)) {
			out = append(out, cobra.CompletionWithDesc(name, strings.Join(where[name], ", ")))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
