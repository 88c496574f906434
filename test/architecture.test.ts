/**
 * The layer map of docs/architecture.md, enforced: a module imports only its
 * own layer and the layers below it; inside `agents/`, a folder imports only
 * the folders below it, through their `index.ts`; the core has no `node:`
 * imports; no import cycles.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));
const ORDER = ['core', 'model', 'tools', 'context', 'safety', 'state', 'agents', 'skills'];
const ADAPTERS: Record<string, string[]> = {
  providers: ['core', 'model'],
  testing: ['core', 'model'],
  sandbox: ['core', 'model', 'tools'],
  fs: ['core', 'state'],
  redis: ['core', 'safety', 'state'],
  search: ['core', 'tools'],
  sql: ['core', 'state'],
  pglite: ['core', 'state', 'sql'],
  postgres: ['core', 'state', 'sql'],
  otel: ['core'],
  mcp: ['core', 'model', 'tools'],
  queue: ['core', 'agents', 'state'],
  net: ['core', 'safety'],
  browser: ['core', 'model', 'safety', 'tools', 'net'],
  viewer: ['core', 'safety', 'state'],
  'ai-sdk-ui': ['core', 'state', 'viewer'],
  'ag-ui': ['core', 'model', 'tools', 'state', 'viewer'],
  evals: ['core', 'model'],
};

/** The folders of `agents/` and the folders each may import; files directly in `agents/` (`run.ts`) import none. */
const AGENT_FOLDERS: Record<string, string[]> = {
  executor: [],
  planner: [],
  routing: [],
  handoff: ['executor'],
  orchestrator: ['executor', 'planner', 'routing', 'handoff'],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const all = files(src);
const layerOf = (file: string) => relative(src, file).split('/')[0]!.replace(/\.ts$/, '');
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1]!);

describe('architecture', () => {
  it('imports point down the layer map only', () => {
    const problems: string[] = [];
    for (const file of all) {
      const layer = layerOf(file);
      if (layer === 'index') continue;
      const allowed = ADAPTERS[layer] ?? ORDER.slice(0, ORDER.indexOf(layer) + 1);
      for (const spec of importsOf(file)) {
        if (!spec.startsWith('.')) continue;
        const target = layerOf(resolve(dirname(file), spec));
        if (target !== layer && !allowed.includes(target))
          problems.push(`${relative(src, file)} → ${target}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the folders of agents/ in order, each used through its index.ts', () => {
    const agents = join(src, 'agents');
    const folderOf = (file: string) => {
      const parts = relative(agents, file).split('/');
      return parts.length > 1 ? parts[0]! : '';
    };
    const problems: string[] = [];
    for (const file of all.filter((f) => layerOf(f) === 'agents')) {
      const folder = folderOf(file);
      const name = relative(src, file);
      if (folder && !(folder in AGENT_FOLDERS)) problems.push(`${name}: unknown folder ${folder}`);
      if (file === join(agents, 'index.ts')) continue;
      for (const spec of importsOf(file)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
        if (layerOf(target) !== 'agents') continue;
        const to = folderOf(target);
        if (to === folder) continue;
        if (to === '' ? target === join(agents, 'index.ts') : !AGENT_FOLDERS[folder]?.includes(to))
          problems.push(`${name} → ${relative(src, target)}`);
        else if (to !== '' && basename(target) !== 'index.ts')
          problems.push(`${name} → ${relative(src, target)} (not through ${to}/index.ts)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('maps behaviours in docs/architecture.md only to files that exist', () => {
    const doc = readFileSync(fileURLToPath(new URL('../docs/architecture.md', import.meta.url)), 'utf8');
    const map = doc.slice(doc.indexOf('## Where each behaviour lives'));
    const named = [...map.matchAll(/`([\w./-]+\/[\w.-]+\.ts)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((path) => !existsSync(join(src, path)))).toEqual([]);
  });

  it('keeps node: modules out of the core entry point', () => {
    const coreLayers = new Set([...ORDER, 'providers', 'testing', 'otel', 'index']);
    const offenders = all.filter(
      (f) => coreLayers.has(layerOf(f)) && importsOf(f).some((s) => s.startsWith('node:')),
    );
    expect(offenders.map((f) => relative(src, f))).toEqual([]);
  });

  it('keeps every source file short enough to read in one sitting (400 lines at most)', () => {
    const long = all
      .map((f) => ({ file: relative(src, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 400);
    expect(long).toEqual([]);
  });

  it('has no function with more than three positional parameters, but for public signatures kept as they are', () => {
    // Public API of 0.1 whose change would break callers; each takes a trailing options object or a cause.
    const kept = new Set([
      'agents/handoff/session-rules.ts constructor',
      'agents/handoff/session-rules.ts request',
      'agents/planner/planner.ts enhanceStepInstructions',
      'mcp/errors.ts constructor',
      'mcp/prompts.ts getMcpPrompt',
      'providers/anthropic/request.ts toAnthropicBody',
      'redis/connection.ts constructor',
      'sandbox/cgroup.ts limitWarnings',
      'skills/builtin/errors.ts constructor',
      'state/checkpoint-store.ts claimCheckpoint',
    ]);
    const long: string[] = [];
    for (const file of all) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && !ts.isFunctionTypeNode(node) && node.parameters.length > 3) {
          const name = ts.isConstructorDeclaration(node)
            ? 'constructor'
            : (node.name?.getText(source) ?? '(anonymous)');
          const where = `${relative(src, file)} ${name}`;
          if (!kept.has(where)) long.push(`${where} (${node.parameters.length})`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });

  it('has no import cycles', () => {
    const graph = new Map(
      all.map((f) => [
        f,
        importsOf(f)
          .filter((s) => s.startsWith('.'))
          .map((s) => resolve(dirname(f), s).replace(/\.js$/, '.ts')),
      ]),
    );
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(src, f)).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of all) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
