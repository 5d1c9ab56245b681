# The release image: gwlint as the entrypoint, gwctl and the render worker
# gwlint-render beside it, run as a non-root user in /src, where the
# repository is mounted:
#   docker run --rm -v "$PWD:/src" ghcr.io/gwlint/gwlint:VERSION check .
# goreleaser builds it (.goreleaser.yaml, dockers_v2) from a context that
# holds the static binaries under $TARGETPLATFORM/ and imagefs/, which
# hack/imagefs.sh writes: /etc/passwd and /etc/group naming the user, and
# the CA bundle. The base is empty, so that the image builds offline
# (TestReleaseImage builds and runs it) and holds nothing else to patch.
FROM scratch
ARG TARGETPLATFORM
# Set by the release from its version, commit and commit date.
ARG VERSION=dev
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="gwlint" \
      org.opencontainers.image.description="Offline linter and explainer for Kubernetes Gateway API manifests" \
      org.opencontainers.image.url="https://github.com/gwlint/gwlint" \
      org.opencontainers.image.source="https://github.com/gwlint/gwlint" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.created="$CREATED"
COPY imagefs/ /
COPY $TARGETPLATFORM/gwlint $TARGETPLATFORM/gwctl $TARGETPLATFORM/gwlint-render /usr/local/bin/
# By number, so that Kubernetes' runAsNonRoot can tell it is not root.
USER 65532:65532
# An empty base sets no PATH: `--entrypoint gwctl` finds gwctl through it.
ENV PATH=/usr/local/bin
WORKDIR /src
ENTRYPOINT ["/usr/local/bin/gwlint"]
