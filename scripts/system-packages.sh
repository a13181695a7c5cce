#!/bin/sh
# The system packages the tests need, installed from Debian when absent:
# chromium (the browser tests drive it headless through Playwright) and PostgreSQL
# (the server's durability test starts a throwaway cluster). Run by `make test`.
set -e
missing=""
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || missing="$missing chromium"
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
    || missing="$missing postgresql"
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "warbench: please install$missing (the browser and database tests need them)" >&2
    exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing$missing from Debian (once)" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
