#!/bin/sh
# Debian's npm when `npm` is missing: npm installs the pinned Pyodide (tools/pyodide) for the puzzle pages' play mode and Lighthouse (tools/lighthouse) for make bench.
# Installs it with apt-get (as root, or through sudo), like tools/ensure_hunspell.sh.
set -eu
if command -v npm >/dev/null 2>&1; then
    exit 0
fi
echo "ensure_npm: npm missing, installing Debian's npm package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
command -v npm >/dev/null 2>&1 || { echo "ensure_npm: npm still missing after apt-get" >&2; exit 1; }
