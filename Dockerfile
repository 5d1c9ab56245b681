# The release image (goreleaser builds the binaries and puts them under
# $TARGETPLATFORM/ in the build context): gwlint as the entrypoint, gwctl
# beside it.
#   docker run --rm -v "$PWD:/src" -w /src ghcr.io/gwlint/gwlint check
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/gwlint $TARGETPLATFORM/gwctl /usr/local/bin/
ENTRYPOINT ["/usr/local/bin/gwlint"]
