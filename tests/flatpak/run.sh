#!/bin/bash
# run.sh: the flatpak suite: build the runtime (cached) and the app, then use the app in its
# sandbox against DynamoDB Local, under Xvfb, with a D-Bus session, a keyring and the portals.
#
#   tests/flatpak/run.sh OUT-DIR
#
# Exit 77 (skip) when flatpak is not installed, except under CI=true where that fails.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fixtures="$here/../fixtures"
out=${1:?usage: run.sh OUT-DIR}

installation=$("$here/build-app.sh" "$out")
status=$?
if ((status == 77)) && [[ "${CI:-}" == true ]]; then
  echo "run.sh: CI=true, so a missing flatpak is a failure, not a skip" >&2
  exit 1
fi
((status == 0)) || exit "$status"

export FLATPAK_USER_DIR="$installation"
export DYNO_FLATPAK_OUT
DYNO_FLATPAK_OUT=$(cd "$out" && pwd)
# The portals pick their backends (gnome-keyring's Secret, GTK's file chooser) by desktop.
export XDG_CURRENT_DESKTOP=GNOME
# As on a desktop: the sandbox finds the document portal's files (export and import through the
# file chooser portal) where the portal says they are only when this is /run/user/UID.
export DYNO_KEYRING_RUNTIME_DIR="/run/user/$(id -u)"
exec "$fixtures/with-ddb-local.sh" "$fixtures/with-keyring.sh" "$fixtures/with-xvfb.sh" \
  /usr/bin/python3 "$here/test_flatpak.py"
