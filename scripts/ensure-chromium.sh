#!/usr/bin/env bash
# The e2e tests drive Debian's Chromium (Playwright cannot download its own browser here): its
# headless shell, the lighter build Playwright runs headless (e2e/playwright.config.ts), and the full
# browser, which the config falls back to and a person may pick with E2E_BROWSER.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium and chromium-headless-shell for the e2e tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  exit 0
fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "The e2e tests need /usr/bin/chromium: run 'sudo apt-get install -y chromium chromium-headless-shell' first." >&2
exit 1
