#!/usr/bin/env bash
# Builds a stand-in for node:20-bookworm-slim where Docker Hub cannot be reached: Debian
# bookworm (debootstrap, minbase) with this machine's node, npm and node headers laid out
# as in the official image (/usr/local), plus this machine's CA bundle when it has one
# that the network needs (an intercepting proxy). Prints the tag to pass as BASE_IMAGE.
#
#   test/docker/standin/base.sh [WORK_DIR]      (root; debootstrap, docker)
set -euo pipefail

tag=patron-standin/node:20-bookworm-slim
work=${1:-${TMPDIR:-/tmp}/patron-standin}
rootfs="$work/rootfs"
node_bin=$(readlink -f "$(command -v node)")
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
headers=$(dirname "$(dirname "$node_bin")")/include/node
[[ -f "$headers/node.h" ]] || { echo "no node headers at $headers" >&2; exit 1; }
[[ "$(node -p 'process.versions.node.split(".")[0]')" == 20 ]] || { echo "node is not 20" >&2; exit 1; }
# Imported once: a new import is a new image, which would void every build cached on it.
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "$tag"
  exit 0
fi

if [[ ! -x "$rootfs/bin/bash" ]]; then
  mkdir -p "$work"
  debootstrap --variant=minbase bookworm "$rootfs.partial" http://deb.debian.org/debian >&2
  mv "$rootfs.partial" "$rootfs"
fi
install -D -m 755 "$node_bin" "$rootfs/usr/local/bin/node"
rm -rf "$rootfs/usr/local/lib/node_modules/npm" "$rootfs/usr/local/include/node"
mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
cp -a "$headers" "$rootfs/usr/local/include/node"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*

changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]')
if [[ -n "${NODE_EXTRA_CA_CERTS:-}" && -f "$NODE_EXTRA_CA_CERTS" ]]; then
  install -D -m 644 "$NODE_EXTRA_CA_CERTS" "$rootfs/usr/local/share/patron-standin/ca.crt"
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/patron-standin/ca.crt')
fi
tar -C "$rootfs" -c . | docker import "${changes[@]}" - "$tag" >&2
echo "$tag"
