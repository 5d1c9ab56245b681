# The release image (goreleaser builds the binaries and copies them in):
# gwlint as the entrypoint, gwctl beside it.
#   docker run --rm -v "$PWD:/src" -w /src ghcr.io/gwlint/gwlint check
FROM gcr.io/distroless/static-debian12:nonroot
COPY gwlint gwctl /usr/local/bin/
ENTRYPOINT ["/usr/local/bin/gwlint"]
