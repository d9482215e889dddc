#!/bin/bash
# setup-deps.sh: install everything DynoTable's build and tests need (Debian 12).
#
# Idempotent: apt is skipped when every package in tools/debian-packages.txt is already
# installed, and `npm ci` is skipped when tests/node_modules matches the lockfile.
#
#   tools/setup-deps.sh          everything: the build, the tests' servers and peer clients
#   tools/setup-deps.sh --app    only what building and running the app needs (the "Build"
#                                section of the list): no Java, no Node.js, no npm packages
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
list="$here/debian-packages.txt"

log () { printf 'setup-deps: %s\n' "$*" >&2; }

app_only=false
case "${1:-}" in
  --app) app_only=true ;;
  "") ;;
  *) echo "usage: $0 [--app]" >&2; exit 2 ;;
esac

if $app_only; then
  # the lines of the "# Build" section, up to the first blank line
  mapfile -t wanted < <(sed -n '/^# Build$/,/^$/p' "$list" | sed -e 's/#.*//' -e 's/[[:space:]]//g' |
                        grep -v '^$')
else
  mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
  # Java runs DynamoDB Local; Node runs npm and the JS SDK.  Use what the machine has if present.
  if ! command -v java >/dev/null 2>&1; then
    wanted+=(openjdk-17-jre-headless)
  fi
  if ! command -v node >/dev/null 2>&1; then
    wanted+=(nodejs npm)
  elif ! command -v npm >/dev/null 2>&1; then
    wanted+=(npm)
  fi
fi

missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != ii* ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} > 0)); then
  log "installing ${#missing[@]} Debian package(s): ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    log "not root and no sudo: install these packages first: ${missing[*]}"
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=600 "${missing[@]}" </dev/null
else
  log "all ${#wanted[@]} Debian packages are installed"
fi

$app_only && exit 0

# npm test dependencies (DynamoDB Local, dynalite, AWS SDK for JavaScript v3) under tests/.
# The stamp records the lockfile it was installed from, so a re-run is instant.
lock="$root/tests/package-lock.json"
stamp="$root/tests/node_modules/.dynotable-lock.sha256"
want_sum=$(sha256sum "$lock" | cut -d' ' -f1)
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want_sum" ]]; then
  log "tests/node_modules is up to date with tests/package-lock.json"
else
  log "npm ci in tests/"
  npm ci --prefix "$root/tests" --no-audit --no-fund --loglevel=error </dev/null
  printf '%s\n' "$want_sum" > "$stamp"
fi
