#!/usr/bin/env bash
# Installs Debian's Rspamd when it is missing, for the spam tests and the bench (issue 30): they start their own
# Rspamd on loopback ports with a temporary configuration and the local Redis (test-support/rspamd.ts).
# Several test processes may call it at once: flock lets one install while the others wait.
set -euo pipefail
if command -v rspamd >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "rspamd is missing: install it (apt-get install -y rspamd)" >&2
  exit 1
fi
exec 9>/tmp/mailroom-install-rspamd.lock
flock 9
if command -v rspamd >/dev/null 2>&1; then exit 0; fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends rspamd
