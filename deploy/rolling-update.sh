#!/usr/bin/env bash
# Replaces the containers of a Patron service of deploy/compose.yaml one at a time, with
# the image its tag names now (docs/deploy.md, "Upgrading"): a new container is started
# beside the old ones and waited for until it is ready, then one old container is stopped
# (SIGTERM: it drains, docs/shutdown.md) and removed. The service never runs fewer
# containers than before, and HAProxy finds each new one through Docker's DNS.
#
#   deploy/rolling-update.sh [SERVICE]            (default: api; run from deploy/)
#
# COMPOSE overrides the compose command ("docker-compose", or with options such as
# "docker compose --env-file /etc/patron/compose.env"); COMPOSE_PROJECT_NAME and
# COMPOSE_FILE are read by compose itself.
set -euo pipefail

service=${1:-api}
read -r -a compose <<<"${COMPOSE:-docker compose}"
# HAProxy's `inter 1s rise 2`: two good checks after the container is ready, and a second to spare.
settle_seconds=${PATRON_ROLLING_SETTLE_SECONDS:-3}
ready_timeout_seconds=${PATRON_ROLLING_READY_TIMEOUT_SECONDS:-180}
stop_timeout_seconds=${PATRON_ROLLING_STOP_TIMEOUT_SECONDS:-40}

ids() { "${compose[@]}" ps -q "$service" | sort; }

# /ready inside the container (the image has node, not curl). `patron worker` has no HTTP:
# it is ready once it runs.
wait_ready() {
  local id=$1 deadline=$((SECONDS + ready_timeout_seconds)) serves=false
  local probe="fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
  [[ "$(docker inspect --format '{{json .Config.Cmd}}' "$id")" == *'"serve"'* ]] && serves=true
  while ((SECONDS < deadline)); do
    [[ "$(docker inspect --format '{{.State.Running}}' "$id")" == true ]] || { echo "container $id exited" >&2; return 1; }
    if [[ $serves == false ]] || docker exec "$id" node -e "$probe" 2>/dev/null; then return 0; fi
    sleep 1
  done
  echo "container $id was not ready within ${ready_timeout_seconds}s" >&2
  return 1
}

mapfile -t old < <(ids)
((${#old[@]} > 0)) || { echo "no running containers of $service" >&2; exit 1; }
count=${#old[@]}
for id in "${old[@]}"; do
  before=$(ids)
  "${compose[@]}" up -d --no-deps --no-recreate --scale "$service=$((count + 1))" "$service" >&2
  new=$(comm -13 <(echo "$before") <(ids))
  [[ $(wc -w <<<"$new") -eq 1 ]] || { echo "expected one new container of $service, got: ${new:-none}" >&2; exit 1; }
  wait_ready "$new"
  sleep "$settle_seconds"
  docker stop -t "$stop_timeout_seconds" "$id" >/dev/null
  echo "replaced ${id:0:12} (exit $(docker inspect --format '{{.State.ExitCode}}' "$id")) with ${new:0:12}"
  docker rm "$id" >/dev/null
done
