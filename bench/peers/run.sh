#!/usr/bin/env bash
# Runs the peer benchmark (bench/peers: the same workload on OpenAI Agents, the
# AI SDK, LangGraph, LangChain, a hand loop and tandem's build) and writes the
# figures into README.md's speed table. The peer SDKs are this folder's own
# dependencies (bench/peers/package.json and its lockfile), installed here with
# `npm ci`, never the project's.
#   bash bench/peers/run.sh [run.mjs options, e.g. --only baseline,tandem,ai-sdk --rounds 1 --quick]
# A run with --quick or --only leaves README.md as it is: the table shows full runs only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
(cd "$root" && npm run build >/dev/null)
npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
TANDEM_DIST="$root/dist/index.js" node "$here/run.mjs" --no-sizes "$@"
case " $* " in
*" --quick "* | *" --only "*) echo "bench/peers: partial run (--quick/--only); README.md not updated" >&2 ;;
*) node "$here/readme-table.mjs" "$here/results.json" "$root/README.md" ;;
esac
