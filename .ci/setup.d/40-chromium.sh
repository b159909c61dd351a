#!/usr/bin/env bash
# Headless Chromium and its WebDriver for the web UI browser tests (tests/ui).
# Idempotent: installs Debian's chromium and chromium-driver only when missing,
# then exports where they are. Sourced by .ci/run, so it must not `exit`.
set -euo pipefail

if ! command -v chromedriver >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null
fi

# The tests read these; they fail (under GATEHOUSE_REQUIRE_PEERS=1) or skip without them.
GATEHOUSE_CHROMEDRIVER="$(command -v chromedriver)"
GATEHOUSE_CHROMIUM="$(command -v chromium)"
export GATEHOUSE_CHROMEDRIVER GATEHOUSE_CHROMIUM
echo "chromium: $GATEHOUSE_CHROMIUM ($("$GATEHOUSE_CHROMIUM" --version 2>/dev/null || echo unknown))"
echo "chromedriver: $GATEHOUSE_CHROMEDRIVER"
