#!/usr/bin/env bash
# Runs before `npm test`: the suite uses real system programs — redis-server
# (Redis store and interrupt bus), postgres (Postgres store), bwrap (sandbox
# isolation), prlimit and tar (sandbox limits and snapshots), python3 in
# /usr/bin (code execution inside bwrap), and Chromium in /usr/bin (the run viewer's and tandem-agents/browser's
# tests). Installs
# the missing ones with apt when it can (root on Debian or Ubuntu); otherwise
# names them and lets the affected tests fail clearly — except Chromium, whose
# tests skip without it.
set -euo pipefail
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
# The Postgres store tests start Debian's server binaries, which are not on PATH.
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v prlimit >/dev/null || missing+=(util-linux)
command -v tar >/dev/null || missing+=(tar)
[ -x /usr/bin/python3 ] || missing+=(python3)
browser=()
[ -x /usr/bin/chromium ] || browser+=(chromium)
[ ${#missing[@]} -eq 0 ] && [ ${#browser[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if [ ${#missing[@]} -gt 0 ]; then
    echo "test-deps: installing ${missing[*]}"
    # The tests start their own servers: no default cluster (and no service) from the package.
    if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
      mkdir -p /etc/postgresql-common
      echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf
    fi
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if [ ${#browser[@]} -gt 0 ]; then
    echo "test-deps: installing chromium"
    apt-get install -y -qq --no-install-recommends chromium >/dev/null ||
      echo "test-deps: chromium could not be installed; the viewer's and the browser tools' tests will be skipped" >&2
  fi
else
  [ ${#missing[@]} -gt 0 ] &&
    echo "test-deps: missing ${missing[*]} — install them (Debian/Ubuntu: apt-get install ${missing[*]}); the tests that need them will fail" >&2
  [ ${#browser[@]} -gt 0 ] &&
    echo "test-deps: no /usr/bin/chromium (Debian/Ubuntu: apt-get install chromium); the viewer's and the browser tools' tests will be skipped" >&2
fi
exit 0
