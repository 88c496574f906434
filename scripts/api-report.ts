/**
 * The API report: every entry point's public surface as the built package
 * declares it, one markdown file per entry under api/ (api/index.api.md for
 * `tandem-agents`, api/openai.api.md for `tandem-agents/openai`, …). Each
 * exported name with its kind, whether it exists at runtime, and its
 * declaration (comments and private members left out), then the types the
 * declarations name that the entry does not export.
 *
 * The reports are committed, and test/package/api-report.test.ts fails when
 * the build's surface differs from them, so the surface changes only on
 * purpose. Regenerate, after `npm run build`:
 *   npx tsx scripts/api-report.ts --write    (or `npm run api`, which builds first)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository root, with a trailing slash. */
const root = fileURLToPath(new URL('..', import.meta.url));

/** The folder the reports live in. */
export const apiDir = `${root}api/`;

interface Entry {
  /** `tandem-agents`, `tandem-agents/openai`, … */
  specifier: string;
  /** The report's file name: `index.api.md`, `viewer-server.api.md`, … */
  file: string;
  /** The entry's CJS declarations, which its ESM declarations re-export. */
  declarations: string;
}

/** Every code entry of package.json `exports`. */
export function entries(): Entry[] {
  const { name, exports } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  return Object.entries(exports as Record<string, unknown>)
    .filter(([, target]) => typeof target !== 'string')
    .map(([key, target]) => {
      const subpath = key === '.' ? '' : key.slice(2);
      const types = (target as { require: { types: string } }).require.types;
      return {
        specifier: subpath ? `${name}/${subpath}` : name,
        file: `${subpath ? subpath.replaceAll('/', '-') : 'index'}.api.md`,
        declarations: `${root}${types.replace(/^\.\//, '')}`,
      };
    });
}

/** The runtime names of one entry in each build. */
interface Runtime {
  esm: string[];
  cjs: string[];
}

/** Runtime names of each entry in the ESM and the CJS build, read by a child Node as users load them. */
export function runtimeExports(specifiers: string[]): Record<string, Runtime> {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(process.cwd() + '/');
    const out = {};
    for (const s of ${JSON.stringify(specifiers)}) {
      out[s] = { esm: Object.keys(await import(s)).sort(), cjs: Object.keys(require(s)).sort() };
    }
    console.log(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

function isPrivate(member: ts.ClassElement): boolean {
  if (member.name && ts.isPrivateIdentifier(member.name)) return true;
  const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
  return modifiers.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
}

function kindOf(declaration: ts.Declaration): string {
  if (ts.isClassDeclaration(declaration)) return 'class';
  if (ts.isFunctionDeclaration(declaration)) return 'function';
  if (ts.isVariableDeclaration(declaration)) return 'const';
  if (ts.isInterfaceDeclaration(declaration)) return 'interface';
  if (ts.isTypeAliasDeclaration(declaration)) return 'type';
  if (ts.isEnumDeclaration(declaration)) return 'enum';
  if (ts.isModuleDeclaration(declaration)) return 'namespace';
  return ts.SyntaxKind[declaration.kind];
}

/** One declaration as TypeScript prints it: no comments, no private members. */
function printDeclaration(declaration: ts.Declaration): string {
  const source = declaration.getSourceFile();
  if (ts.isVariableDeclaration(declaration)) {
    return `declare const ${printer.printNode(ts.EmitHint.Unspecified, declaration, source)};`;
  }
  if (ts.isClassDeclaration(declaration)) {
    const members = declaration.members.filter((m) => !isPrivate(m));
    const shown = ts.factory.updateClassDeclaration(
      declaration,
      declaration.modifiers,
      declaration.name,
      declaration.typeParameters,
      declaration.heritageClauses,
      members,
    );
    return printer.printNode(ts.EmitHint.Unspecified, shown, source);
  }
  return printer.printNode(ts.EmitHint.Unspecified, declaration, source);
}

const sortNames = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Symbols the declarations name (through type references, `typeof` and heritage) that lie in dist/. */
function referencedSymbols(checker: ts.TypeChecker, declaration: ts.Node): ts.Symbol[] {
  const found: ts.Symbol[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassElement(node) && isPrivate(node)) return;
    let name: ts.Node | undefined;
    if (ts.isTypeReferenceNode(node)) name = node.typeName;
    else if (ts.isTypeQueryNode(node)) name = node.exprName;
    else if (ts.isExpressionWithTypeArguments(node)) name = node.expression;
    const symbol = name && checker.getSymbolAtLocation(name);
    if (symbol) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const inDist = target.declarations?.some((d) => d.getSourceFile().fileName.startsWith(`${root}dist/`));
      if (inDist && !(target.flags & ts.SymbolFlags.TypeParameter)) found.push(target);
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration);
  return found;
}

/** The symbols an entry exports by exported name, sorted, each resolved through its aliases. */
function exportsOf(program: ts.Program, entry: Entry): [string, ts.Symbol][] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry.declarations);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`api-report: ${entry.declarations} has no module symbol; is dist/ built?`);
  return checker
    .getExportsOfModule(module)
    .sort((a, b) => sortNames(a.name, b.name))
    .map((s) => [s.name, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s]);
}

/** Names of the types the `exported` declarations reach, through any depth, that are not `known`. */
function unexportedNames(checker: ts.TypeChecker, exported: Set<ts.Symbol>, known: Set<ts.Symbol>): string[] {
  const names = new Set<string>();
  const queue = [...exported];
  const seen = new Set([...exported, ...known]);
  while (queue.length > 0) {
    const symbol = queue.pop()!;
    for (const declaration of symbol.declarations ?? []) {
      for (const referenced of referencedSymbols(checker, declaration)) {
        if (seen.has(referenced)) continue;
        seen.add(referenced);
        queue.push(referenced);
        names.add(referenced.name);
      }
    }
  }
  return [...names].sort(sortNames);
}

/**
 * The report of one entry, as markdown. `root` holds what `tandem-agents`
 * exports: a subpath's declarations may name those freely.
 */
function report(program: ts.Program, entry: Entry, runtime: Runtime, root: Set<ts.Symbol>): string {
  const exported = exportsOf(program, entry);
  const values = new Set(runtime.esm);
  const sections = exported.map(([name, target]) => {
    const declarations = target.declarations ?? [];
    const kinds = [...new Set(declarations.map(kindOf))].join(', ');
    const where = values.has(name) ? 'runtime' : 'type only';
    const text = declarations.map(printDeclaration).join('\n');
    return `### \`${name}\` (${kinds}; ${where})\n\n\`\`\`ts\n${text}\n\`\`\``;
  });
  const own = new Set(exported.map(([, target]) => target));
  const unexported = unexportedNames(program.getTypeChecker(), own, root);
  const mismatch =
    runtime.esm.join() === runtime.cjs.join()
      ? ''
      : `\n**The ESM and CJS builds export different names** (ESM: ${runtime.esm.length}, CJS: ${runtime.cjs.length}).\n`;
  const heading =
    root.size > 0
      ? 'Types the declarations name that neither this entry nor `tandem-agents` exports'
      : 'Types the declarations name that this entry does not export';
  return [
    `# API report: \`${entry.specifier}\``,
    '',
    'Generated from the built declarations by `npm run api` (scripts/api-report.ts); do not edit by hand.',
    '',
    `${exported.length} exports: ${values.size} at runtime, ${exported.length - values.size} type-only.`,
    mismatch,
    '## Exports',
    '',
    sections.join('\n\n'),
    '',
    `## ${heading}`,
    '',
    unexported.length > 0 ? unexported.map((n) => `- \`${n}\``).join('\n') : 'None.',
    '',
  ].join('\n');
}

/**
 * The declarations of dist/ alone: no default library and no dependency's
 * types (the AI SDK's alone are megabytes), since a report prints what dist/
 * declares and only follows names between its own files. Keeps the check fast.
 */
function distProgram(files: string[]): ts.Program {
  const options: ts.CompilerOptions = { noEmit: true, noLib: true, types: [], skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => {
      if (!literal.text.startsWith('.')) return { resolvedModule: undefined };
      return ts.resolveModuleName(literal.text, containingFile, options, host);
    });
  return ts.createProgram({ rootNames: files, options, host });
}

/** Every entry's report by file name, from dist/ as it is now. */
export function apiReports(): Map<string, string> {
  const list = entries();
  const missing = list.map((e) => e.declarations).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `api-report: dist/ is incomplete (${missing[0]} is missing); run \`npm run build\` first`,
    );
  }
  const runtime = runtimeExports(list.map((e) => e.specifier));
  const program = distProgram(list.map((e) => e.declarations));
  const rootEntry = list.find((e) => !e.specifier.includes('/'));
  const root = new Set(rootEntry ? exportsOf(program, rootEntry).map(([, target]) => target) : []);
  return new Map(
    list.map((e) => {
      const names = runtime[e.specifier] ?? { esm: [], cjs: [] };
      return [e.file, report(program, e, names, e === rootEntry ? new Set() : root)];
    }),
  );
}

/** Where a built report first differs from the committed one, for a message a reader can act on. */
export function firstDifference(built: string, committed: string): string {
  const a = built.split('\n');
  const b = committed.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  const shown = (text: string | undefined) => JSON.stringify(text ?? '(end)');
  return `line ${at + 1}: the build has ${shown(a[at])}, the report ${shown(b[at])}`;
}

/** The committed reports by file name. */
export function committedReports(): Map<string, string> {
  if (!existsSync(apiDir)) return new Map();
  const files = readdirSync(apiDir).filter((f) => f.endsWith('.api.md'));
  return new Map(files.map((f) => [f, readFileSync(`${apiDir}${f}`, 'utf8')]));
}

function write(): void {
  const reports = apiReports();
  rmSync(apiDir, { recursive: true, force: true });
  mkdirSync(apiDir, { recursive: true });
  for (const [file, text] of reports) writeFileSync(`${apiDir}${file}`, text);
  console.log(`api-report: wrote ${reports.size} reports to api/`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--write')) write();
  else {
    const built = apiReports();
    const committed = committedReports();
    const stale = [...new Set([...built.keys(), ...committed.keys()])]
      .filter((f) => built.get(f) !== committed.get(f))
      .map((f) => `api/${f} (${firstDifference(built.get(f) ?? '', committed.get(f) ?? '')})`);
    if (stale.length > 0) {
      console.error(
        `api-report: the build differs from the reports; run \`npm run api\`:\n${stale.join('\n')}`,
      );
      process.exit(1);
    }
    console.log('api-report: the committed reports match the build');
  }
}
