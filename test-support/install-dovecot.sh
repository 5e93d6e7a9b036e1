#!/usr/bin/env bash
# Installs Debian's Dovecot IMAP server when it is missing, for the collectors' tests, e2e and bench (issue 18):
# they start their own Dovecot on a loopback port with a configuration in a temporary folder (test-support/dovecot.ts).
# Several test processes may call it at once: flock lets one install while the others wait.
set -euo pipefail
if command -v dovecot >/dev/null 2>&1 && [ -e /usr/lib/dovecot/imap ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "dovecot is missing: install dovecot-imapd (apt-get install -y dovecot-imapd dovecot-core)" >&2
  exit 1
fi
exec 9>/tmp/mailroom-install-dovecot.lock
flock 9
if command -v dovecot >/dev/null 2>&1 && [ -e /usr/lib/dovecot/imap ]; then exit 0; fi
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y dovecot-imapd dovecot-core
