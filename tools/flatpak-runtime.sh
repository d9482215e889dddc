#!/bin/bash
# flatpak-runtime.sh: a stand-in GNOME runtime and SDK, made from this machine's own Debian
# packages, installed into a private Flatpak installation, so that the real manifest
# (flatpak/com.dynotable.DynoTable.json) builds and runs here without reaching Flathub.
#
#   tools/flatpak-runtime.sh            build (or reuse) the runtime; print the installation dir
#
# The result is cached under $DYNO_FLATPAK_CACHE (default ~/.cache/dynotable/flatpak), keyed
# on the versions of every installed Debian package and on this script: when either changes,
# the runtime is made again.  Use the printed directory as FLATPAK_USER_DIR with `--user`.
#
# It is a stand-in: org.gnome.Platform//51 and org.gnome.Sdk//51 under the ids the manifest
# names, but with Debian 12's GTK 4.8 and libadwaita 1.2 inside.  It checks packaging and the
# sandbox (permissions, portals, files), not the behaviour of GNOME 51's newer libraries.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
manifest="$root/flatpak/com.dynotable.DynoTable.json"
log () { printf 'flatpak-runtime: %s\n' "$*" >&2; }

version=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runtime-version"])' \
            "$manifest")
arch=$(flatpak --default-arch)
cache=${DYNO_FLATPAK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dynotable/flatpak}

key=$( { dpkg-query -W -f='${Package} ${Version} ${Architecture}\n' | LC_ALL=C sort
         cat "${BASH_SOURCE[0]}"; echo "$version $arch"; } | sha256sum | cut -c1-16)
dir="$cache/runtime-$key"
installation="$dir/installation"

if [[ -f "$dir/complete" ]]; then
  log "reusing $dir"
  echo "$installation"
  exit 0
fi

# Another key's runtime is stale: remove it (they are several GB each).
mkdir -p "$cache"
for old in "$cache"/runtime-*; do
  [[ -e "$old" && "$old" != "$dir" ]] || continue
  log "removing the stale runtime $old"
  rm -rf "$old"
done
rm -rf "$dir"
mkdir -p "$dir"
started=$(date +%s)

# ---- the tree: /usr by hard links, less what no GNOME app needs -----------------------------
log "making the runtime tree from /usr (hard links)"
tree="$dir/tree"
mkdir -p "$tree"
# Hard links need the cache on the same file system as /usr; else a copy (slower, 3 GB more).
if ! cp -al /usr "$tree/files" 2>/dev/null; then
  log "the cache is on another file system than /usr: copying instead of linking"
  rm -rf "$tree/files"
  cp -a /usr "$tree/files"
fi
files="$tree/files"
rm -rf "$files/local" "$files/lib/jvm" "$files/lib/llvm-14" "$files/lib/go-1.19" \
       "$files/share/go-1.19" "$files/lib/mono" "$files/lib/rustlib" "$files/lib/ruby" \
       "$files/lib/node_modules" "$files/share/nodejs" "$files/share/doc" "$files/share/man" \
       "$files/share/info" "$files/lib/debug" "$files/share/gocode" "$files/lib/cli" \
       "$files/share/dotnet" "$files/lib/php" "$files/share/php" "$files/share/ri" \
       "$files/share/fpcsrc" "$files/lib/x86_64-linux-gnu/fpc" "$files/share/package-lists" \
       "$files/share/vim" "$files/lib/x86_64-linux-gnu/valgrind" "$files/libexec/valgrind" \
       "$files/bin/node" "$files/bin/shellcheck" "$files/bin/cargo" "$files/bin/rustc" \
       "$files/bin/x86_64-linux-gnu-lto-dump-12" \
       "$files"/lib/x86_64-linux-gnu/librustc_driver-*.so \
       "$files"/lib/x86_64-linux-gnu/libLLVM-14.so* "$files"/lib/x86_64-linux-gnu/libclang-14.so* \
       2>/dev/null || true
# Debian's /usr/lib holds python's site-packages for aws and boto: the app never runs them.
rm -rf "$files/lib/python3/dist-packages/botocore" "$files/lib/python3/dist-packages/boto3" \
       "$files/lib/python3/dist-packages/awscli" 2>/dev/null || true
# GNOME's runtime has flatpak-spawn in /usr/bin (the app runs credential_process through it);
# Debian keeps it in flatpak-xdg-utils' own directory.
if [[ -x /usr/libexec/flatpak-xdg-utils/flatpak-spawn && ! -e "$files/bin/flatpak-spawn" ]]; then
  ln "$files/libexec/flatpak-xdg-utils/flatpak-spawn" "$files/bin/flatpak-spawn"
fi

# The few parts of /etc that libraries read.
mkdir -p "$files/etc"
for e in ld.so.conf ld.so.conf.d fonts ssl ca-certificates ca-certificates.conf alternatives \
         xdg nsswitch.conf gtk-4.0 gtk-3.0 pango dconf gnutls gcrypt pkcs11 locale.alias \
         protocols services host.conf gai.conf mime.types; do
  if [[ -e "/etc/$e" ]]; then
    cp -a "/etc/$e" "$files/etc/"
  fi
done

# flatpak-builder 1.2 composes AppStream inside the SDK with appstream-compose (Debian's
# appstream-util): the SDK needs it; the host copy came along with /usr when it is installed.
if [[ ! -x "$files/bin/appstream-compose" ]]; then
  log "warning: appstream-compose is not installed on this machine (package appstream-util)"
fi

cat > "$tree/metadata" <<EOF
[Runtime]
name=org.gnome.Sdk
runtime=org.gnome.Platform/$arch/$version
sdk=org.gnome.Sdk/$arch/$version
EOF

# ---- export both ids from the same tree into an OSTree repository ----------------------------
repo="$dir/repo"
ostree init --mode=bare-user --repo="$repo"
log "exporting org.gnome.Sdk//$version"
flatpak build-export --disable-fsync --runtime --files=files "$repo" "$tree" "$version" >/dev/null
sed -i 's/^name=org.gnome.Sdk$/name=org.gnome.Platform/' "$tree/metadata"
log "exporting org.gnome.Platform//$version"
flatpak build-export --disable-fsync --runtime --files=files "$repo" "$tree" "$version" >/dev/null
rm -rf "$tree"

# ---- install into a private installation ----------------------------------------------------
mkdir -p "$installation"
export FLATPAK_USER_DIR="$installation"
flatpak remote-add --user --if-not-exists --no-gpg-verify dynotable-standin "file://$repo"
log "installing the stand-in runtime and SDK"
flatpak install --user -y --noninteractive dynotable-standin \
  "org.gnome.Platform//$version" "org.gnome.Sdk//$version" >/dev/null
# The repository stays: it is the origin of the runtime, which flatpak-builder --install and
# `flatpak install --bundle` resolve dependencies through.

touch "$dir/complete"
log "runtime ready in $(( $(date +%s) - started )) s: $installation"
echo "$installation"
