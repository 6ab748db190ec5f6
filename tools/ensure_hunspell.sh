#!/bin/sh
# Debian's Hunspell dictionaries for the edition check's spelling (Italian, English, Russian),
# read by spylls from /usr/share/hunspell. Installs hunspell-it, hunspell-en-us and hunspell-ru
# with apt-get when any dictionary is missing.
set -eu
DIR=${HUNSPELL_DIR:-/usr/share/hunspell}
if [ -f "$DIR/it_IT.dic" ] && [ -f "$DIR/en_US.dic" ] && [ -f "$DIR/ru_RU.dic" ]; then
    exit 0
fi
echo "ensure_hunspell: dictionaries missing in $DIR, installing Debian's hunspell-it hunspell-en-us hunspell-ru" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends hunspell-it hunspell-en-us hunspell-ru >/dev/null
test -f "$DIR/it_IT.dic" || { echo "ensure_hunspell: $DIR/it_IT.dic still missing after apt-get" >&2; exit 1; }
