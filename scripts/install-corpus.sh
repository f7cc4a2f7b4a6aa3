#!/usr/bin/env bash
# Installs the realistic page corpus for `make bench-peers` — Debian's
# python3-doc, the Python documentation as static HTML — when it is missing,
# and prints the directory that holds its pages. The package comes from the
# system's apt sources, so it needs root (or sudo) the first time only.
set -euo pipefail

package="${BROWSE_CORPUS_PACKAGE:-python3-doc}"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

if ! installed "$package"; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-corpus: no apt-get; install $package by hand" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "install-corpus: $package is missing and installing it needs root" >&2
      exit 1
    fi
    sudo="sudo"
  fi
  echo "install-corpus: installing $package" >&2
  # An update first only when the package is unknown to the local lists.
  apt-cache show "$package" >/dev/null 2>&1 || $sudo apt-get update >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "$package" >&2
fi

# python3-doc is a thin package that depends on python3.X-doc, which holds
# the pages; the directory is the one with library/index.html among the files
# the two packages list.
dir="$(dpkg -L "$package" $(dpkg-query -W -f='${Depends}' "$package" | tr ',' '\n' | sed -n 's/^ *\([a-z0-9.+-]*-doc\).*/\1/p') 2>/dev/null \
  | sed -n 's|/library/index\.html$||p' | head -n 1)"
# dpkg -L shows a symlinked directory under its link name; prefer the real path.
if [ -n "$dir" ] && [ -d "$dir" ]; then
  readlink -f "$dir"
  exit 0
fi
echo "install-corpus: cannot find the HTML pages of $package (no library/index.html in dpkg -L)" >&2
exit 1
