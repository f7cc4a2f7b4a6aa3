#!/usr/bin/env bash
# Installs agent-browser, the peer that `make bench` compares browse with,
# into a cache directory outside the repository, and prints the path of its
# native binary (the npm package ships one per platform). Running it again
# reuses the install. Nothing else is downloaded: the package's postinstall
# script, which would fetch a binary from GitHub when one is missing, is
# skipped, and the bench points agent-browser at the system's Chromium.
#
# AGENT_BROWSER_VERSION picks another version; the default is pinned so that
# figures from different days compare the same peer.
set -euo pipefail

version="${AGENT_BROWSER_VERSION:-0.41.2}"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/browse-bench/agent-browser-$version"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64)  platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  Darwin-x86_64) platform=darwin-x64 ;;
  Darwin-arm64)  platform=darwin-arm64 ;;
  *) echo "install-agent-browser: no agent-browser binary for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac
if [ "$platform" = linux-x64 ] || [ "$platform" = linux-arm64 ]; then
  if ldd --version 2>&1 | grep -qi musl; then platform="linux-musl-${platform#linux-}"; fi
fi
bin="$dir/node_modules/agent-browser/bin/agent-browser-$platform"

if [ ! -f "$bin" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-agent-browser: npm is not installed" >&2
    exit 1
  fi
  echo "install-agent-browser: installing agent-browser@$version into $dir" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --ignore-scripts --no-audit --no-fund --no-save --loglevel=error \
    "agent-browser@$version" >&2
  if [ ! -f "$bin" ]; then
    echo "install-agent-browser: the package has no $bin" >&2
    exit 1
  fi
fi
# The skipped postinstall script is what marks the binary executable.
[ -x "$bin" ] || chmod +x "$bin"
echo "$bin"
