#!/usr/bin/env bash
# Runs the peer benchmark (../shared/bench-peers: the same workload on OpenAI
# Agents, the AI SDK, LangGraph, LangChain and a hand loop) with tandem added,
# from a scratch copy so no peer SDK enters this project's dependencies, and
# writes the medians into README.md's speed table.
#   bash bench/peers/run.sh [run.mjs options, e.g. --only baseline,tandem,ai-sdk --rounds 1]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
peers="$root/../shared/bench-peers"
[ -d "$peers" ] || { echo "bench/peers: $peers not found" >&2; exit 1; }
(cd "$root" && npm run build >/dev/null)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$peers/." "$work/"
cp "$here/tandem.mjs" "$work/frameworks/tandem.mjs"
cd "$work"
npm ci --no-audit --no-fund >/dev/null
TANDEM_DIST="$root/dist/index.js" node run.mjs --no-sizes "$@"
node "$here/readme-table.mjs" "$work/results.json" "$root/README.md"
