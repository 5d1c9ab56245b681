# gwlint — build, test and install the gwlint and gwctl commands and their
# render worker, gwlint-render.
GO      ?= go
BIN     ?= bin
PKGS    := ./...
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null)
LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
# The generators and benchmark tools (hack/floor, internal/corpus/cmd/gencorpus,
# resolve/crd/internal/gen/cmd/*, resolve/profile/internal/genprofiles) build
# only with this tag, so that `go install ./...` (pre-commit) builds gwlint,
# gwctl and gwlint-render alone; vet, test and bench pass it so that the tools never rot.
DEVTAGS := -tags gwlintdev
# The commands are built without cgo, as the release builds them: nothing they
# do needs C, and a static binary starts about 1 ms sooner (no dynamic loader,
# no C runtime), a fifth of a check of one file (docs/performance.md).
# Only build and install set it: the race detector of `make test` needs cgo.
# (pre-commit's golang hook builds with `go install`, Go's default: dynamic
# where a C compiler is installed.)
NOCGO   := CGO_ENABLED=0

.PHONY: all build test testdata-modules parity fidelity vet install bench fuzz clean

all: build

build:
	$(NOCGO) $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/ ./cmd/gwlint ./cmd/gwctl ./cmd/gwlint-render

vet:
	$(GO) vet $(DEVTAGS) $(PKGS)

# The conformance suite's manifests are test data for resolve's conformance
# cases; the module is not a build dependency, so fetch it into the cache.
CONFORMANCE := sigs.k8s.io/gateway-api/conformance@v1.6.3

testdata-modules:
	cd "$$(mktemp -d)" && $(GO) mod download $(CONFORMANCE)

# The README's test command: vet, every test with the race detector, the
# CRD parity proof, and every benchmark once.
test: vet testdata-modules parity
	GWLINT_REQUIRE_CONFORMANCE=1 $(GO) test -race $(DEVTAGS) $(PKGS)
	$(GO) test $(DEVTAGS) -run '^$$' -bench . -benchtime=1x $(PKGS)

# Parity with the API server, proven: the real apiextensions-apiserver
# validation runs beside resolve/crd over the upstream examples, the invalid
# examples, generated corpora and mutations. A nested module, so the
# product's go.mod stays lean.
parity:
	cd resolve/crd/oracle && $(GO) vet ./... && $(GO) test ./...

# Fidelity against Envoy Gateway's and Istio's own translator tests (see
# docs/resolver.md): their test data is read from clones of their
# repositories (git directories), never copied here, and each project must
# agree on at least FIDELITY_MIN% of the non-trivial outcomes.
# make fidelity EG_GIT=../gateway/.git ISTIO_GIT=../istio/.git
FIDELITY_MIN ?= 97

fidelity:
	@test -n "$(EG_GIT)" -a -n "$(ISTIO_GIT)" || { echo "set EG_GIT and ISTIO_GIT to git directories of envoyproxy/gateway and istio/istio"; exit 2; }
	dir="$$(mktemp -d)" && mkdir -p "$$dir/eg" "$$dir/istio" && \
	git --git-dir="$(EG_GIT)" archive HEAD internal/gatewayapi/testdata | tar -x -C "$$dir/eg" && \
	git --git-dir="$(ISTIO_GIT)" archive HEAD pilot/pkg/config/kube/gateway/testdata | tar -x -C "$$dir/istio" && \
	GWLINT_FIDELITY_ENVOY_GATEWAY="$$dir/eg" GWLINT_FIDELITY_ISTIO="$$dir/istio" GWLINT_FIDELITY_MIN=$(FIDELITY_MIN) \
		$(GO) test -count=1 -v -run '^TestFidelity$$' ./internal/fidelity; status=$$?; rm -rf "$$dir"; exit $$status

install:
	$(NOCGO) $(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/gwlint ./cmd/gwctl ./cmd/gwlint-render

# Benchmarks on corpora generated at test time (cached under
# $$GWLINT_CORPUS_CACHE or $$TMPDIR/gwlint-corpus, never committed): every
# stage and the whole of `gwlint check` as multiples of the floor (x-floor),
# small → medium → large. `make test` runs them once each on the small
# corpus so they never rot. Whole-process comparisons (floor, gwlint,
# kubeconform; peak RSS): hack/bench.sh. See docs/performance.md.
BENCH_SIZES ?= small,medium,large
BENCH_OUT   ?= $(BIN)/bench/make-bench.txt

bench:
	@mkdir -p $(dir $(BENCH_OUT))
	GWLINT_BENCH_SIZES=$(BENCH_SIZES) bash -o pipefail -c "$(GO) test $(DEVTAGS) -run '^\$$' -bench . -benchmem -timeout 60m $(PKGS) | tee $(BENCH_OUT)"

# Every fuzz target of the module (found with go test -list, so none is
# forgotten), one after the other, each for FUZZTIME (a duration such as
# 10m, or a count of executions such as 1000000x). `make test` runs their
# seed corpora (testdata and testdata/fuzz) as ordinary tests.
FUZZTIME ?= 1m
# How long each new interesting input is minimized (go test's default is
# 60s): minimizing the resolver's multi-kilobyte worlds stalls the worker
# for that long each time, most of a run early on.
FUZZMINIMIZETIME ?= 2s

fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$target"; \
			$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) $$pkg; \
		done; \
	done

clean:
	rm -rf $(BIN)
