#!/bin/sh
# Writes the files that the release image (Dockerfile) puts beside the
# binaries on its empty base, into imagefs/ (or the directory given): what
# distroless/static would give them, made here so that the image builds
# without pulling anything. .goreleaser.yaml runs it as a before hook and
# copies imagefs/ into the image's build context (extra_files).
set -eu
dir=${1:-imagefs}
rm -rf "$dir"
mkdir -p "$dir/etc/ssl/certs"
# root, and nonroot (uid 65532, as distroless has him), who runs gwlint.
# gwlint writes nothing outside the files it is told to: no home is needed.
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/nonexistent:/sbin/nologin\n' >"$dir/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' >"$dir/etc/group"
# The CA bundle of the machine that builds the image (Mozilla's roots, as
# distroless takes them from Debian's ca-certificates): the first file of
# those crypto/x509 reads on Linux, then macOS's.
for f in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt \
  /etc/ssl/ca-bundle.pem /etc/pki/tls/cacert.pem \
  /etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem /etc/ssl/cert.pem; do
  if [ -s "$f" ]; then
    cp "$f" "$dir/etc/ssl/certs/ca-certificates.crt"
    exit 0
  fi
done
echo "hack/imagefs.sh: no CA bundle found on this machine" >&2
exit 1
