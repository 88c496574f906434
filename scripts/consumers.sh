#!/usr/bin/env bash
# Consumer matrix: what users install, tested the ways they use it. Packs the
# built package (`npm pack`), installs the tarball into scratch projects under
# a temp dir and runs one offline agent with a tool in each cell: Node ESM and
# CJS, TypeScript resolution modes, zod 3.25 / 4, valibot, AI SDK 5 / 6 / 7,
# Bun, Deno, a browser bundle, and the README's Quick start pasted into a
# fresh `npm init -y` project. Templates live in scripts/consumers/.
#
# Usage, from the repository root after `npm run build`:
#   bash scripts/consumers.sh
# Env: CONSUMERS_JOBS cells at once (default 2), CONSUMERS_INSTALL_JOBS
# installs at once (default 4), CONSUMERS_KEEP=1 keeps the scratch dir.
# Exits non-zero when a cell fails, after printing that cell's log.
set -uo pipefail

ROOT=$PWD
TEMPLATES=$ROOT/scripts/consumers
JOBS=${CONSUMERS_JOBS:-2}
INSTALL_JOBS=${CONSUMERS_INSTALL_JOBS:-4}
NPM_FLAGS=(--no-audit --no-fund --prefer-offline --loglevel=error)

die() {
  echo "consumers: $*" >&2
  exit 1
}

[[ -f package.json && $(node -p "require('./package.json').name") == tandem-agents ]] ||
  die "run from the tandem repository root"
for built in dist/index.js dist/index.cjs dist/index.d.ts dist/index.d.cts; do
  [[ -f $built ]] || die "dist/ is missing ($built): run \`npm run build\` first"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tandem-consumers.XXXXXX")
LOGS=$WORK/logs
RESULTS=$WORK/results
mkdir -p "$LOGS" "$RESULTS"

# Waits until fewer than $1 background jobs run.
throttle() {
  while (($(jobs -rp | wc -l) >= $1)); do wait -n; done
}

# The package as users get it: the tarball npm publishes.
pack_json=$(npm pack --json --ignore-scripts --pack-destination "$WORK" 2>"$LOGS/pack.log") ||
  die "npm pack failed: $(cat "$LOGS/pack.log")"
TARBALL=$WORK/$(node -e 'const [p] = JSON.parse(process.argv[1]); console.log(p.filename)' "$pack_json")
PACK_SUMMARY=$(node -e '
  const [p] = JSON.parse(process.argv[1]);
  const kB = (n) => (n / 1024).toFixed(1) + " kB";
  console.log(`${p.filename}: ${kB(p.size)} packed, ${kB(p.unpackedSize)} unpacked, ${p.entryCount} files`);
' "$pack_json")

# Scratch projects, one per distinct set of dependencies; `tarball` stands for the package.
PROJECT_NAMES=(base zod3 valibot ai5 ai6 ai7 tools bare quickstart)
declare -A PROJECTS=(
  [base]="tarball zod typescript@~5.9 @types/node@20 esbuild ai @opentelemetry/api @modelcontextprotocol/sdk bullmq ioredis playwright-core @electric-sql/pglite@0.5.14 @electric-sql/pglite-pgvector@0.0.15 pg @types/pg"
  [zod3]="tarball zod@~3.25.0"
  [valibot]="tarball valibot @valibot/to-json-schema"
  [ai5]="tarball zod ai@5 @ai-sdk/openai-compatible@1"
  [ai6]="tarball zod ai@6 @ai-sdk/openai-compatible@2"
  [ai7]="tarball zod ai@7 @ai-sdk/openai-compatible@3"
  [tools]="bun deno typescript-latest@npm:typescript@latest"
  [bare]="tarball"
  [quickstart]="tarball zod"
)

install_project() {
  local name=$1 dir=$WORK/$1 deps=()
  mkdir -p "$dir"
  # The Quick start's project is what `npm init -y` makes (CommonJS by default).
  if [[ $name == quickstart ]]; then
    (cd "$dir" && npm init -y >/dev/null)
  else
    echo "{\"name\": \"consumer-$name\", \"private\": true}" >"$dir/package.json"
  fi
  cp "$TEMPLATES"/*.mjs "$TEMPLATES"/*.cjs "$TEMPLATES"/types/* "$dir"/
  cp "$dir/all-subpaths.ts" "$dir/all-subpaths.mts"
  cp "$dir/all-subpaths.ts" "$dir/all-subpaths.cts"
  for dep in ${PROJECTS[$name]}; do
    [[ $dep == tarball ]] && deps+=("$TARBALL") || deps+=("$dep")
  done
  local start=$EPOCHREALTIME
  if (cd "$dir" && npm install "${NPM_FLAGS[@]}" "${deps[@]}") >"$LOGS/$(slug "install $name").log" 2>&1; then
    record "install $name" PASS "$start"
  else
    record "install $name" FAIL "$start"
  fi
}

# The file a cell's log or result lives in (cell names may hold a slash).
slug() {
  echo "${1//\//-}"
}

# record CELL RESULT START: one line per cell (name, result, seconds), read back for the table.
record() {
  local micros=$((${EPOCHREALTIME/./} - ${3/./}))
  printf '%s\t%s\t%d.%d\n' "$1" "$2" $((micros / 1000000)) $((micros / 100000 % 10)) >"$RESULTS/$(slug "$1")"
}

# The first of the candidate binaries that runs (npm may skip the install script that links bin shims).
runnable() {
  local bin
  for bin in "$@"; do
    [[ -x $bin ]] && "$bin" --version >/dev/null 2>&1 && echo "$bin" && return 0
  done
  return 1
}

# run_cell NAME PROJECT COMMAND: runs COMMAND in the project dir, logs it, records PASS / FAIL.
run_cell() {
  local name=$1 project=$2 command=$3 start=$EPOCHREALTIME
  if [[ $(cut -f2 "$RESULTS/install $project") != PASS ]]; then
    echo "not run: installing project '$project' failed (see 'install $project')" >"$LOGS/$(slug "$name").log"
    record "$name" FAIL "$start"
    return
  fi
  if (cd "$WORK/$project" && timeout 300 bash -c "$command") >"$LOGS/$(slug "$name").log" 2>&1; then
    record "$name" PASS "$start"
  else
    record "$name" FAIL "$start"
  fi
}

echo "consumers: $PACK_SUMMARY"
echo "consumers: installing ${#PROJECT_NAMES[@]} scratch projects in $WORK"
for project in "${PROJECT_NAMES[@]}"; do
  throttle "$INSTALL_JOBS"
  install_project "$project" &
done
wait

TOOLS=$WORK/tools/node_modules
no_binary() { echo "sh -c 'echo no runnable $1 binary in $TOOLS >&2; exit 1' --"; }
BUN=$(runnable "$TOOLS/.bin/bun" "$TOOLS"/@oven/bun-linux-*/bin/bun) || BUN=$(no_binary bun)
DENO=$(runnable "$TOOLS/.bin/deno" "$TOOLS"/@deno/linux-*/deno) || DENO=$(no_binary deno)
TSC="node tsc.mjs node_modules/.bin/tsc"
TSC_LATEST="node tsc.mjs $TOOLS/typescript-latest/bin/tsc"

CELLS=(
  "node esm (.mjs)|base|node agent.mjs"
  "node cjs (.cjs) + openai 429|base|node agent.cjs"
  "tsc node16|base|$TSC tsconfig.node16.json"
  "tsc nodenext|base|$TSC tsconfig.nodenext.json"
  "tsc bundler|base|$TSC tsconfig.bundler.json"
  "tsc node10 (commonjs)|base|$TSC tsconfig.node10.json"
  "tsc nodenext, typescript latest|base|$TSC_LATEST tsconfig.nodenext.json"
  "zod 3.25 (imports zod/v4)|zod3|node zod.mjs"
  "zod 4 latest|base|node zod.mjs"
  "valibot|valibot|node valibot.mjs"
  "ai 5 + openai-compatible 1|ai5|node ai-sdk.mjs"
  "ai 6 + openai-compatible 2|ai6|node ai-sdk.mjs"
  "ai 7 + openai-compatible 3|ai7|node ai-sdk.mjs"
  "bun (esm)|base|$BUN --version && $BUN agent.mjs"
  "deno (esm)|base|$DENO --version && DENO_NO_UPDATE_CHECK=1 $DENO run -A --node-modules-dir=manual agent.mjs"
  "browser bundle (esbuild)|base|node browser.mjs"
  "README Quick start as index.mjs in npm init -y|quickstart|node quickstart.mjs $ROOT/README.md"
)

for cell in "${CELLS[@]}"; do
  IFS='|' read -r name project command <<<"$cell"
  throttle "$JOBS"
  run_cell "$name" "$project" "$command" &
done
wait

# What `npm i tandem-agents` adds to a project: the total and its largest packages (npm installs the zod peer too).
BARE=$WORK/bare/node_modules
largest=$(cd "$BARE" 2>/dev/null && du -sk -- */ @*/*/ 2>/dev/null | grep -v '^[0-9]*\s@[^/]*/$' | sort -rn | head -4 |
  awk '{ sub("/$", "", $2); printf "%s%s %.1f MB", sep, $2, $1 / 1024; sep = ", " }')
BARE_SIZE="bare install (npm i <tarball>): node_modules $(du -sh "$BARE" 2>/dev/null | cut -f1) — largest: $largest"

failed=()
echo
echo "## Consumer matrix"
echo
echo "$PACK_SUMMARY  "
echo "$BARE_SIZE"
echo
echo "| cell | result | seconds |"
echo "| --- | --- | --: |"
for project in "${PROJECT_NAMES[@]}"; do
  IFS=$'\t' read -r name result seconds <"$RESULTS/install $project"
  echo "| $name | $result | $seconds |"
  [[ $result == PASS ]] || failed+=("$name")
done
for cell in "${CELLS[@]}"; do
  IFS='|' read -r name _ <<<"$cell"
  IFS=$'\t' read -r name result seconds <"$RESULTS/$(slug "$name")"
  echo "| $name | $result | $seconds |"
  [[ $result == PASS ]] || failed+=("$name")
done

for name in "${failed[@]}"; do
  echo
  log=$LOGS/$(slug "$name").log
  echo "----- FAILED: $name (last 80 lines of $log) -----"
  tail -n 80 "$log"
done

if ((${#failed[@]} > 0)); then
  echo
  echo "consumers: ${#failed[@]} cell(s) failed: ${failed[*]}; scratch projects kept in $WORK" >&2
  exit 1
fi
[[ ${CONSUMERS_KEEP:-} == 1 ]] || rm -rf "$WORK"
echo
echo "consumers: all cells passed"
