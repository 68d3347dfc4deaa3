#!/usr/bin/env bash
# deploy.sh - build and roll out the service to a host.
#
# Usage: deploy.sh [-n] HOST [VERSION]
set -euo pipefail

readonly SERVICE=shop-api
readonly REMOTE_DIR=/srv/${SERVICE}
DRY_RUN=0

source "$(dirname "$0")/lib/common.sh"

# log prints a timestamped message to stderr.
log() {
  printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2
}

die() {
  log "error: $*"
  exit 1
}

# run executes a command, or only prints it in dry-run mode.
run() {
  if [[ $DRY_RUN -eq 1 ]]; then
    log "dry-run: $*"
  else
    "$@"
  fi
}

usage() {
  sed -n '4p' "$0" | sed 's/^# //'
  exit 2
}

# build compiles the binary for linux/amd64 and prints its path.
function build {
  local version=$1
  local out="dist/${SERVICE}-${version}"
  mkdir -p dist
  GOOS=linux GOARCH=amd64 run go build -ldflags "-X main.version=${version}" -o "$out" ./cmd/server
  echo "$out"
}

# deploy copies the binary to host and restarts the service, keeping the
# previous binary for rollback.
deploy() {
  local host=$1 binary=$2
  run scp "$binary" "${host}:${REMOTE_DIR}/${SERVICE}.new"
  run ssh "$host" "set -e
    cd ${REMOTE_DIR}
    [ -f ${SERVICE} ] && mv ${SERVICE} ${SERVICE}.prev
    mv ${SERVICE}.new ${SERVICE}
    sudo systemctl restart ${SERVICE}"
  if ! run ssh "$host" "systemctl is-active --quiet ${SERVICE}"; then
    log "service failed to start, rolling back"
    run ssh "$host" "cd ${REMOTE_DIR} && mv ${SERVICE}.prev ${SERVICE} && sudo systemctl restart ${SERVICE}"
    return 1
  fi
}

while getopts ":n" opt; do
  case $opt in
    n) DRY_RUN=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))

[[ $# -ge 1 ]] || usage
host=$1
version=${2:-$(git describe --tags --always)}

log "deploying ${SERVICE} ${version} to ${host}"
binary=$(build "$version")
deploy "$host" "$binary" || die "deploy to ${host} failed"
log "done"
