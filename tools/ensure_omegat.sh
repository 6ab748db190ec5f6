#!/bin/sh
# OmegaT, the CAT tool whose termbase import reads the glossary's TBX export in the test suite
# (tests/test_check_exports.py). Installs Debian's omegat package (Java, no GUI needed: the test calls
# OmegaT's TBX reader) with apt-get when it is missing.
set -eu
JAR=${OMEGAT_JAR:-/usr/share/omegat/OmegaT.jar}
if [ -f "$JAR" ]; then
    exit 0
fi
echo "ensure_omegat: $JAR missing, installing Debian's omegat" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends omegat >/dev/null
test -f "$JAR" || { echo "ensure_omegat: $JAR still missing after apt-get" >&2; exit 1; }
