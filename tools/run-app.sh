#!/bin/bash
# run-app.sh: install what is missing, build DynoTable and start it.
#
#   tools/run-app.sh [ARGS…]
#
# Starts _build/src/dynotable (the desktop app) when this version builds it; otherwise says so
# and shows what the command-line companion, dynotable-cli, can do.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/tools/setup-deps.sh"

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

if [[ -x _build/src/dynotable ]]; then
  rm -f "$log"; trap - EXIT
  exec _build/src/dynotable "$@"
fi

echo "The desktop app is not built in this version of DynoTable; the command-line companion is:"
echo
rm -f "$log"; trap - EXIT
exec _build/src/cli/dynotable-cli --help
