/**
 * Every ```ts block of the README and docs/ compiles in a user's project:
 * each block is a module of its own, checked strictly against the BUILT
 * package's declarations (`tandem-agents` and its subpaths resolve to dist/),
 * with the repository's zod, ai, MCP SDK and Node types. A block that only
 * sketches a signature says so in its fence, ```ts sketch, and is skipped.
 * All blocks are checked by one TypeScript program, from memory.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageEntries, packageRoot } from './built-package.js';

/** One fenced block: where it starts (`file:line` of its first code line) and its code. */
interface DocBlock {
  where: string;
  code: string;
}

const FENCE = /^[ \t]*```([^\n`]*)\n([\s\S]*?)^[ \t]*```/gm;
/** Fence info strings checked; `ts sketch` (any extra word after `ts`) is not. */
const CHECKED = new Set(['ts', 'typescript']);

function markdownFiles(): string[] {
  const docs = readdirSync(`${packageRoot}docs`, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md') && !f.startsWith('api'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs.sort()];
}

/** The blocks of one markdown text whose fence info string is exactly a checked language. */
function checkedBlocks(file: string, text: string): DocBlock[] {
  return [...text.matchAll(FENCE)]
    .filter((m) => CHECKED.has((m[1] ?? '').trim()))
    .map((m) => ({ where: `${file}:${text.slice(0, m.index).split('\n').length + 1}`, code: m[2] ?? '' }));
}

/** Where a block's virtual module lives: inside the repository, so `zod` and the rest resolve from its node_modules. */
function virtualPath(index: number): string {
  return `${packageRoot}.docs-blocks/block-${index}.ts`;
}

function compilerOptions(): ts.CompilerOptions {
  const paths: Record<string, string[]> = {};
  for (const [specifier, entry] of packageEntries())
    paths[specifier] = [`${packageRoot}${entry.import.types}`];
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    moduleDetection: ts.ModuleDetectionKind.Force,
    baseUrl: packageRoot,
    paths,
  };
}

/** Type errors of every block, each as `file:line: message`, with the line in the markdown file. */
function typeErrors(blocks: DocBlock[]): string[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const virtual = new Map(blocks.map((b, i) => [virtualPath(i), b]));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name)?.code ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const block = virtual.get(name);
    if (block) return ts.createSourceFile(name, block.code, language, true, ts.ScriptKind.TS);
    return getSourceFile.call(host, name, language, ...rest);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const block = d.file && virtual.get(d.file.fileName);
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!block || !d.file || d.start === undefined) return `${d.file?.fileName ?? '(options)'}: ${message}`;
    const [file, first] = block.where.split(':');
    const line = d.file.getLineAndCharacterOfPosition(d.start).line + Number(first);
    return `${file}:${line}: ${message}`;
  });
}

describe('```ts blocks of README.md and docs/', () => {
  const blocks = markdownFiles().flatMap((file) =>
    checkedBlocks(file, readFileSync(`${packageRoot}${file}`, 'utf8')),
  );
  beforeAll(() => assertBuilt());

  it('are found: the README and docs/ hold many', () => {
    expect(blocks.some((b) => b.where.startsWith('README.md:'))).toBe(true);
    expect(blocks.length).toBeGreaterThan(50);
  });

  it('each typechecks as a module of its own against the built package', () => {
    expect(typeErrors(blocks)).toEqual([]);
  }, 120_000);

  it('a block with an error is reported at its line in the markdown file; a sketch is not checked', () => {
    const text = [
      '# Page',
      '```ts',
      "import { Executor } from 'tandem-agents';",
      'const n: number = Executor;',
      '```',
      '```ts sketch',
      'run(task: string): Run',
      '```',
    ].join('\n');
    const found = checkedBlocks('page.md', text);
    expect(found).toHaveLength(1);
    const [error] = typeErrors(found);
    expect(error).toMatch(/^page\.md:4: Type 'typeof Executor' is not assignable to type 'number'/);
  }, 60_000);
});
