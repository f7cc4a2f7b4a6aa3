#!/usr/bin/env bash
# Drives a real page with the freshly built binary, as an agent would.
set -euo pipefail
cd "$(dirname "$0")/.."
B=./bin/browse
page="file://$PWD/testdata/home.html"
run() { echo "\$ browse $*"; "$B" "$@"; echo; }
run goto "$page"
run text
run links
run js "document.querySelectorAll('a').length"
run screenshot --viewport "${TMPDIR:-/tmp}/browse-demo.png"
run pdf "${TMPDIR:-/tmp}/browse-demo.pdf"
run newtab "file://$PWD/testdata/form.html"
run forms
run tabs
run console
run status
run stop
