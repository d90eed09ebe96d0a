#!/usr/bin/env bash
# The tests need Debian's Chromium (Playwright cannot download here), a Java runtime for the
# Nu Html Checker (vnu-jar), PostgreSQL's server for a throwaway cluster and Python 3 for the docs'
# Python examples; install whichever is missing.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium" ] || missing+=(chromium)
command -v java >/dev/null || missing+=(default-jre-headless)
command -v python3 >/dev/null || missing+=(python3)
[ -n "${POSTGRES_BIN:-}" ] || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "Missing for the tests: ${missing[*]}. Install Debian's packages of that name (elsewhere, set CHROMIUM_PATH for Chromium and POSTGRES_BIN for the folder of initdb and pg_ctl)." >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian's packages..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
