#!/usr/bin/env bash
# The tests need Debian's Chromium (Playwright cannot download here) and a Java runtime for the
# Nu Html Checker (vnu-jar); install whichever is missing.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium" ] || missing+=(chromium)
command -v java >/dev/null || missing+=(default-jre-headless)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "Missing for the tests: ${missing[*]}. Install Debian's packages of that name (for Chromium elsewhere, set CHROMIUM_PATH)." >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian's packages..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
