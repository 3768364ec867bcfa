#!/usr/bin/env bash
# Builds the stand-ins for the three images deploy/compose.yaml pulls from Docker Hub
# (node, postgres, haproxy) on a machine that cannot reach it, from Debian's packages and
# this machine's node. Prints the variables that point the compose file at them.
#
#   eval "$(test/docker/standin/build.sh)"      (root; debootstrap and docker)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=$("$here/base.sh" "${PATRON_STANDIN_DIR:-${TMPDIR:-/tmp}/patron-standin}")
docker build --quiet --build-arg BASE_IMAGE="$base" -t patron-standin/postgres:15 -f "$here/postgres.Dockerfile" "$here" >&2
docker build --quiet --build-arg BASE_IMAGE="$base" -t patron-standin/haproxy:2.6 -f "$here/haproxy.Dockerfile" "$here" >&2
echo "export PATRON_BASE_IMAGE=$base"
echo "export PATRON_POSTGRES_IMAGE=patron-standin/postgres:15"
echo "export PATRON_HAPROXY_IMAGE=patron-standin/haproxy:2.6"
