#!/usr/bin/env bash
# Differential test of @mailroom/sieve against Dovecot Pigeonhole (issue 14).
#   packages/sieve/diff/run.sh [--quick] [--cases N] [--seed S]      (npm run sieve:diff [-- …])
# Installs dovecot-sieve when sieve-test is missing (Debian), writes a minimal Dovecot config in a
# temporary directory and runs sieve-test as an unprivileged user (it refuses to run as root).
set -euo pipefail
cd "$(dirname "$0")/../../.."

cases=2000
seed=14
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) cases=300 ;;
    --cases) cases=$2; shift ;;
    --seed) seed=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 64 ;;
  esac
  shift
done

if ! command -v sieve-test >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "sieve-test is missing: install dovecot-sieve (apt-get install -y dovecot-sieve dovecot-core)" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y dovecot-sieve dovecot-core
fi

user=${SIEVE_DIFF_USER:-nobody}
work=$(mktemp -d /tmp/sieve-diff.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/mail"
cat >"$work/dovecot.conf" <<CONF
mail_location = maildir:$work/mail
plugin {
  sieve_extensions = +vacation-seconds
}
CONF
chmod -R a+rwX "$work"

run_as() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u "$user" -- "$@"; else "$@"; fi
}
# sieve-test must be able to read what we write: check once with a trivial script.
printf 'keep;\n' >"$work/probe.sieve"
printf 'From: a@example.com\r\n\r\nx\r\n' >"$work/probe.eml"
chmod a+r "$work/probe.sieve" "$work/probe.eml"
if ! run_as env TZ=UTC sieve-test -c "$work/dovecot.conf" "$work/probe.sieve" "$work/probe.eml" >/dev/null 2>"$work/probe.err"; then
  echo "sieve-test does not run as $user:" >&2
  cat "$work/probe.err" >&2
  exit 1
fi

# Where the differing cases are written (the work directory goes when the run ends).
report=${SIEVE_DIFF_KEEP:-${TMPDIR:-/tmp}/sieve-diff-differences.txt}
status=0
node --conditions=@mailroom/source --import tsx packages/sieve/diff/diff.ts \
  --cases "$cases" --seed "$seed" --work "$work" --conf "$work/dovecot.conf" \
  --user "$(if [ "$(id -u)" -eq 0 ]; then echo "$user"; fi)" || status=$?
if [ -f "$work/differences.txt" ]; then
  cp "$work/differences.txt" "$report"
  echo "  differing cases (scripts and both outcomes): $report"
fi
exit $status
