# The release image (goreleaser builds the binaries and puts them under
# $TARGETPLATFORM/ in the build context): gwlint as the entrypoint, gwctl
# and the render worker gwlint-render beside it.
#   docker run --rm -v "$PWD:/src" -w /src ghcr.io/gwlint/gwlint check
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/gwlint $TARGETPLATFORM/gwctl $TARGETPLATFORM/gwlint-render /usr/local/bin/
ENTRYPOINT ["/usr/local/bin/gwlint"]
