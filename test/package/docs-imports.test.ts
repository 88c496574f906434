/**
 * The imports the README and docs/ show work in a user's project: every
 * `import { … } from 'tandem-agents…'` in their code blocks names a subpath
 * the package exports, and each name is exported there by the BUILT package —
 * values by both the ESM and the CJS build, types by its declarations. The
 * README also imports every package export its code blocks use.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageEntries, packageRoot } from './built-package.js';

/** One name of one import statement in a code block. */
interface ShownImport {
  where: string;
  specifier: string;
  name: string;
  typeOnly: boolean;
}

/** What one subpath exports: runtime names per build, and every name its declarations export. */
interface SubpathExports {
  esm: Set<string>;
  cjs: Set<string>;
  types: Set<string>;
}

const CODE_BLOCK = /```(?:ts|typescript|js|javascript|tsx|mjs|cjs)\n([\s\S]*?)```/g;
const PACKAGE_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*'(tandem-agents(?:\/[\w-]+)*)'/g;

function markdownFiles(): string[] {
  const docs = readdirSync(`${packageRoot}docs`, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && !f.startsWith('api'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

function codeBlocks(file: string): { where: string; code: string }[] {
  const text = readFileSync(`${packageRoot}${file}`, 'utf8');
  return [...text.matchAll(CODE_BLOCK)].map((m) => ({
    where: `${file}:${text.slice(0, m.index).split('\n').length}`,
    code: m[1] ?? '',
  }));
}

function shownImports(where: string, code: string): ShownImport[] {
  return [...code.matchAll(PACKAGE_IMPORT)].flatMap((m) =>
    (m[2] ?? '')
      .replace(/\/\/.*$/gm, '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const typeOnly = Boolean(m[1]) || part.startsWith('type ');
        const name = part.replace(/^type\s+/, '').split(/\s+as\s+/)[0] ?? part;
        return { where, specifier: m[3] ?? '', name, typeOnly };
      }),
  );
}

/** Runtime exports as Node resolves them by package name, in a child so dist/ is loaded as users load it. */
function runtimeExports(specifiers: string[]): Record<string, { esm: string[]; cjs: string[] }> {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(process.cwd() + '/');
    const out = {};
    for (const s of ${JSON.stringify(specifiers)}) {
      out[s] = { esm: Object.keys(await import(s)), cjs: Object.keys(require(s)) };
    }
    console.log(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: packageRoot,
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

/** Names each declaration file exports, types included, as the TypeScript checker sees them. */
function declaredExports(files: Map<string, string>): Map<string, Set<string>> {
  const program = ts.createProgram([...files.values()], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const result = new Map<string, Set<string>>();
  for (const [specifier, file] of files) {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    result.set(specifier, new Set(symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : []));
  }
  return result;
}

function loadExports(): Map<string, SubpathExports> {
  const entries = packageEntries();
  const runtime = runtimeExports([...entries.keys()]);
  const declared = declaredExports(
    new Map([...entries].map(([specifier, e]) => [specifier, `${packageRoot}${e.import.types}`])),
  );
  return new Map(
    [...entries.keys()].map((s) => [
      s,
      {
        esm: new Set(runtime[s]?.esm),
        cjs: new Set(runtime[s]?.cjs),
        types: declared.get(s) ?? new Set<string>(),
      },
    ]),
  );
}

/** Why a shown import fails in a user's project, or undefined when it works. */
function problemWith(shown: ShownImport, exports: Map<string, SubpathExports>): string | undefined {
  const at = `${shown.where} ${shown.name} from '${shown.specifier}'`;
  const subpath = exports.get(shown.specifier);
  if (!subpath) return `${at}: the package has no such subpath`;
  const homes = [...exports].filter(([, e]) => e.types.has(shown.name)).map(([s]) => `'${s}'`);
  const hint = homes.length > 0 ? ` (it is exported by ${homes.join(', ')})` : '';
  if (!subpath.types.has(shown.name)) return `${at}: not exported${hint}`;
  if (shown.typeOnly) return undefined;
  if (!subpath.esm.has(shown.name)) return `${at}: a type only, import it with \`type\``;
  if (!subpath.cjs.has(shown.name)) return `${at}: missing from the CJS build`;
  return undefined;
}

/** Identifiers a code block uses, leaving out comments, strings, property names and its own declarations. */
function usedIdentifiers(code: string): Set<string> {
  const bare = code
    .replace(/\/\/.*$/gm, '')
    .replace(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g, "''")
    .replace(PACKAGE_IMPORT, '');
  const declared = new Set(
    [...bare.matchAll(/\b(?:const|let|var|function|class|interface|type)\s+(\w+)/g)].map((m) => m[1]),
  );
  const used = [...bare.matchAll(/(?<![.\w])([A-Za-z_$][\w$]*)\b(?!\s*:[^:])/g)].map((m) => m[1] ?? '');
  return new Set(used.filter((name) => !declared.has(name)));
}

describe('imports shown in README.md and docs/', () => {
  let exports: Map<string, SubpathExports>;
  beforeAll(() => {
    assertBuilt();
    exports = loadExports();
  }, 60_000);

  const blocks = markdownFiles().flatMap(codeBlocks);
  const shown = blocks.flatMap((b) => shownImports(b.where, b.code));

  it('are found: the README and at least ten docs pages import from the package', () => {
    const files = new Set(shown.map((s) => s.where.split(':')[0]));
    expect(files.has('README.md')).toBe(true);
    expect(files.size).toBeGreaterThan(10);
  });

  it('each name is exported by the subpath it is imported from, in the built package', () => {
    const problems = shown.map((s) => problemWith(s, exports)).filter(Boolean);
    expect(problems).toEqual([]);
  });

  it('a name imported from the wrong subpath is reported with the subpath that exports it', () => {
    const wrong = {
      where: 'x.md:1',
      specifier: 'tandem-agents',
      name: 'FileCheckpointStore',
      typeOnly: false,
    };
    expect(problemWith(wrong, exports)).toBe(
      "x.md:1 FileCheckpointStore from 'tandem-agents': not exported (it is exported by 'tandem-agents/fs')",
    );
  });

  it("the README's code blocks import every package export they use", () => {
    const everyExport = new Set([...exports.values()].flatMap((e) => [...e.types]));
    const missing = blocks
      .filter((b) => b.where.startsWith('README.md:'))
      .flatMap((b) => {
        const imported = new Set(shownImports(b.where, b.code).map((s) => s.name));
        return [...usedIdentifiers(b.code)]
          .filter((name) => everyExport.has(name) && !imported.has(name))
          .map((name) => `${b.where} uses ${name} without importing it`);
      });
    expect(missing).toEqual([]);
  });
});
