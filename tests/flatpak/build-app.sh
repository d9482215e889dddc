#!/bin/bash
# build-app.sh: the Flatpak of DynoTable, built from the real manifest against the stand-in
# runtime (tools/flatpak-runtime.sh, cached), installed into that private installation, and
# packed as a bundle.
#
#   tests/flatpak/build-app.sh OUT-DIR
#
# Prints the installation directory (use it as FLATPAK_USER_DIR with --user).  Leaves in
# OUT-DIR: com.dynotable.DynoTable.flatpak (the bundle, `flatpak install --bundle`), repo/
# (the app's OSTree repository) and build.log.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: build-app.sh OUT-DIR}
app_id=com.dynotable.DynoTable
log () { printf 'build-app: %s\n' "$*" >&2; }

for prog in flatpak flatpak-builder ostree; do
  if ! command -v "$prog" >/dev/null 2>&1; then
    log "no '$prog' on PATH (Debian packages flatpak, flatpak-builder, ostree; tools/setup-deps.sh)"
    exit 77
  fi
done

installation=$("$root/tools/flatpak-runtime.sh")
export FLATPAK_USER_DIR="$installation"

mkdir -p "$out"
out=$(cd "$out" && pwd)
started=$(date +%s)
log "building $app_id with flatpak-builder (log: $out/build.log)"
# FUSE is not needed: --disable-rofiles-fuse.  The state dir keeps flatpak-builder's cache
# outside the source tree, which the manifest copies (less its build directories).
if ! flatpak-builder --user --install --force-clean --disable-rofiles-fuse \
       --state-dir="$out/state" --repo="$out/repo" --default-branch=stable \
       "$out/build" "$root/flatpak/$app_id.json" >"$out/build.log" 2>&1; then
  tail -n 60 "$out/build.log" >&2
  log "flatpak-builder failed"
  exit 1
fi
rm -rf "$out/build"
log "built and installed in $(( $(date +%s) - started )) s"

flatpak build-bundle --runtime-repo=https://flathub.org/repo/flathub.flatpakrepo \
  "$out/repo" "$out/$app_id.flatpak" "$app_id" stable >&2
log "bundle: $out/$app_id.flatpak ($(du -h "$out/$app_id.flatpak" | cut -f1))"
echo "$installation"
