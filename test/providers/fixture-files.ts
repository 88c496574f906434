/**
 * Wire fixtures on disk: the project's own set in `test/providers/fixtures`
 * (written from each provider's documented format) and the optional corpus
 * recorded by other projects in `shared/fixtures/providers` beside the
 * repository. Both share one layout: `<provider>/<name>.{json,sse,chunks.jsonl}`
 * plus a `manifest.json` giving each file's HTTP status and content type.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** One entry of a `manifest.json`. */
export interface FixtureEntry {
  /** Path relative to the set's root, e.g. `openai-chat/stream-text-usage.sse`. */
  file: string;
  httpStatus: number;
  contentType: string | null;
  /** Response headers the fixture is served with (e.g. `retry-after`). */
  headers?: Record<string, string>;
  exercises: string;
}

/**
 * How `.chunks.jsonl` lines (one JSON payload per line, no SSE framing) are framed:
 * `chat` = `data: <line>` frames plus a final `data: [DONE]` (Chat Completions and compatibles),
 * `typed` = `event: <payload.type>` + `data: <line>` (Anthropic, OpenAI Responses),
 * `data` = `data: <line>` frames only (Gemini).
 */
export type Framing = 'chat' | 'typed' | 'data';

/** A folder of fixtures with its manifest. */
export interface FixtureSet {
  /** Absolute path of the root folder. */
  readonly dir: string;
  /** True when the folder exists. */
  present(): boolean;
  /** The manifest, keyed by relative path. */
  manifest(): Map<string, FixtureEntry>;
  /** Every fixture file on disk (relative paths, sorted), without the manifest and READMEs. */
  files(): string[];
  /** Raw text of a fixture. */
  read(file: string): string;
  /** A `.json` fixture parsed. */
  json<T = any>(file: string): T;
  /** The JSON payloads of a `.chunks.jsonl` file, or the `data:` payloads of an `.sse` file. */
  events(file: string): any[];
  /** The body a fixture is served with: `.sse` and `.json` as written, `.chunks.jsonl` framed as SSE. */
  body(file: string, framing?: Framing): string;
}

function defaultFraming(file: string): Framing {
  const provider = file.split('/')[0];
  if (provider === 'anthropic' || provider === 'openai-responses') return 'typed';
  if (provider === 'gemini') return 'data';
  return 'chat';
}

function frameChunks(text: string, framing: Framing): string {
  let out = '';
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (framing === 'typed') out += `event: ${(JSON.parse(line) as { type?: string }).type}\n`;
    out += `data: ${line}\n\n`;
  }
  return framing === 'chat' ? `${out}data: [DONE]\n\n` : out;
}

function listFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(root, path));
    else if (name !== 'manifest.json' && name !== 'README.md') {
      out.push(relative(root, path).split('\\').join('/'));
    }
  }
  return out;
}

/** The fixture set rooted at `dir`; nothing is read until asked for. */
export function fixtureSet(dir: string): FixtureSet {
  let manifest: Map<string, FixtureEntry> | undefined;
  const read = (file: string) => readFileSync(resolve(dir, file), 'utf8');
  return {
    dir,
    present: () => existsSync(resolve(dir, 'manifest.json')),
    manifest() {
      manifest ??= new Map(
        (JSON.parse(read('manifest.json')) as { files: FixtureEntry[] }).files.map((e) => [e.file, e]),
      );
      return manifest;
    },
    files: () => listFiles(dir, dir).sort(),
    read,
    json: (file) => JSON.parse(read(file)),
    events(file) {
      const text = read(file);
      const lines = file.endsWith('.sse')
        ? text
            .split(/\r?\n/)
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
        : text.split('\n');
      return lines.filter((l) => l.trim() && l !== '[DONE]').map((l) => JSON.parse(l));
    },
    body(file, framing = defaultFraming(file)) {
      const text = read(file);
      return file.endsWith('.chunks.jsonl') ? frameChunks(text, framing) : text;
    },
  };
}

/** The project's own fixtures, written from the providers' documented wire formats. */
export const OWN_FIXTURES = fixtureSet(resolve(HERE, 'fixtures'));

/** The corpus recorded from live APIs by other projects; present only where `shared/` sits beside the repository. */
export const RECORDED_FIXTURES = fixtureSet(resolve(HERE, '../../../shared/fixtures/providers'));
