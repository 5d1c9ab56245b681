# gwlint — build, test and install the gwlint and gwctl commands.
GO      ?= go
BIN     ?= bin
PKGS    := ./...
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

.PHONY: all build test testdata-modules vet install bench clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/ ./cmd/gwlint ./cmd/gwctl

vet:
	$(GO) vet $(PKGS)

# The conformance suite's manifests are test data for resolve's conformance
# cases; the module is not a build dependency, so fetch it into the cache.
CONFORMANCE := sigs.k8s.io/gateway-api/conformance@v1.6.3

testdata-modules:
	cd "$$(mktemp -d)" && $(GO) mod download $(CONFORMANCE)

# The README's test command: vet, then every test with the race detector.
test: vet testdata-modules
	GWLINT_REQUIRE_CONFORMANCE=1 $(GO) test -race $(PKGS)

install:
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/gwlint ./cmd/gwctl

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

clean:
	rm -rf $(BIN)
