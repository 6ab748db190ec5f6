#!/bin/sh
# Debian's Chromium for the browser tests and Lighthouse (`playwright install` cannot download
# browsers here). Installs the `chromium` package with apt-get when /usr/bin/chromium is missing.
set -eu
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
echo "ensure_chromium: $CHROMIUM missing, installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
test -x "$CHROMIUM" || { echo "ensure_chromium: $CHROMIUM still missing after apt-get" >&2; exit 1; }
