#!/usr/bin/env bash
# Installs Debian's Chromium when no browser browse can use is on this machine.
set -euo pipefail
if [ -n "${BROWSE_CHROMIUM_PATH:-}" ] && [ -x "$BROWSE_CHROMIUM_PATH" ]; then exit 0; fi
for b in chromium chromium-browser google-chrome chrome-headless-shell; do
  if command -v "$b" >/dev/null 2>&1; then exit 0; fi
done
echo "ensure-chromium: no Chromium found; installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
command -v chromium >/dev/null
