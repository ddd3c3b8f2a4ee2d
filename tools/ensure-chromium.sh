#!/bin/sh
# Make sure Debian's chromium is installed for the report's browser test (tests/report/test_browser.py).
# Idempotent and quiet: does nothing when /usr/bin/chromium exists; installs it with apt-get when
# running as root on a system with apt; otherwise says how to install it and exits 0 (the test then
# skips, or fails when CI=true).
set -u
CHROMIUM="${BLUFFCHECK_CHROMIUM:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: installing Debian's chromium for the report's browser test..." >&2
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq >/dev/null 2>&1 \
        && apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 \
        && [ -x "$CHROMIUM" ]; then
        exit 0
    fi
    echo "ensure-chromium: apt-get could not install chromium; the browser test will skip (and fail when CI=true)." >&2
    exit 0
fi
echo "ensure-chromium: $CHROMIUM not found; the report's browser test will skip (and fail when CI=true)." >&2
echo "  Install it with: sudo apt-get install --no-install-recommends chromium" >&2
echo "  or point BLUFFCHECK_CHROMIUM at a chromium binary." >&2
exit 0
