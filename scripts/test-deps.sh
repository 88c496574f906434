#!/usr/bin/env bash
# Runs before `npm test`: the suite uses real system programs — redis-server
# (Redis store and interrupt bus), bwrap (sandbox isolation), prlimit and tar
# (sandbox limits and snapshots), python3 in /usr/bin (code execution inside
# bwrap). Installs the missing ones with apt when it can (root on Debian or
# Ubuntu); otherwise names them and lets the affected tests fail clearly.
set -euo pipefail
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v prlimit >/dev/null || missing+=(util-linux)
command -v tar >/dev/null || missing+=(tar)
[ -x /usr/bin/python3 ] || missing+=(python3)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "test-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "test-deps: missing ${missing[*]} — install them (Debian/Ubuntu: apt-get install ${missing[*]}); the tests that need them will fail" >&2
fi
