/**
 * The built package as users install it: the subpaths of package.json
 * `exports` and the dist/ files they point at. Tests of what users get run
 * against these files, so they fail loudly when dist/ is missing instead of
 * quietly testing src/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root, with a trailing slash. */
export const packageRoot = fileURLToPath(new URL('../..', import.meta.url));

interface ConditionalEntry {
  import: { types: string; default: string };
  require: { types: string; default: string };
}

/** Every code entry of `exports` by its import specifier (`tandem-agents`, `tandem-agents/openai`, …). */
export function packageEntries(): Map<string, ConditionalEntry> {
  const { name, exports } = JSON.parse(readFileSync(`${packageRoot}package.json`, 'utf8'));
  const entries = new Map<string, ConditionalEntry>();
  for (const [key, entry] of Object.entries(exports)) {
    if (typeof entry === 'string') continue;
    entries.set(key === '.' ? name : `${name}/${key.slice(2)}`, entry as ConditionalEntry);
  }
  return entries;
}

/** Throws, naming the missing files, unless every dist/ file the package exports exists. */
export function assertBuilt(): void {
  const files = [...packageEntries().values()].flatMap((e) => [
    e.import.default,
    e.import.types,
    e.require.default,
    e.require.types,
  ]);
  const missing = files.filter((file) => !existsSync(`${packageRoot}${file}`));
  if (missing.length > 0) {
    throw new Error(
      `This test runs against the built package but dist/ is missing or incomplete ` +
        `(${missing.length} of ${files.length} files, e.g. ${missing.slice(0, 3).join(', ')}). Run \`npm run build\` first.`,
    );
  }
}
