# gwlint — build, test and install the gwlint and gwctl commands.
GO      ?= go
BIN     ?= bin
PKGS    := ./...
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

.PHONY: all build test vet install bench clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/ ./cmd/gwlint ./cmd/gwctl

vet:
	$(GO) vet $(PKGS)

# The README's test command: vet, then every test with the race detector.
test: vet
	$(GO) test -race $(PKGS)

install:
	$(GO) install -trimpath -ldflags '$(LDFLAGS)' ./cmd/gwlint ./cmd/gwctl

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

clean:
	rm -rf $(BIN)
