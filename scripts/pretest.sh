#!/usr/bin/env bash
# Runs before `npm test`: installs the system programs the suite uses, then
# builds the package when dist/ is missing or older than its sources, since the
# package, example and cross-build tests run what users install (dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/test-deps.sh
stamp=dist/index.js
if [ ! -f "$stamp" ] || [ -n "$(find src tsup.config.ts package.json -newer "$stamp" -print -quit)" ]; then
  echo "pretest: building dist/ (missing or older than src/)"
  npm run build --silent >/dev/null
fi
