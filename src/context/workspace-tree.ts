/**
 * The workspace structure shown in the system prompt (seed 001, §83): an
 * indented tree with a depth limit, capped entries per directory, cached for
 * five minutes. The core has no file system: a lister function supplies
 * directory entries (Node's `fs`, a sandbox, a remote workspace).
 * @module
 */
import { errorMessage } from '../core/errors.js';
import { type Clock, systemClock } from '../core/seams.js';

/** One directory entry. */
export interface WorkspaceEntry {
  name: string;
  isDirectory: boolean;
}

/** Lists the entries of a directory; `path` is `root` or `root/child/...` joined with `/`. */
export type WorkspaceLister = (path: string) => Promise<WorkspaceEntry[]>;

/** Names skipped besides dot-names. */
export const DEFAULT_SKIPPED_NAMES: readonly string[] = [
  'node_modules',
  'dist',
  'build',
  '__pycache__',
  'venv',
];

/** Options of {@link WorkspaceTree}. */
export interface WorkspaceTreeOptions {
  /** Root directory, passed to `list` as is. */
  root: string;
  list: WorkspaceLister;
  /** Directory levels shown below the root. Default 3. */
  depth?: number;
  /** Entries shown per directory; the rest are counted. Default 50. */
  maxEntriesPerDir?: number;
  /** Names never shown (dot-names are always skipped). Default {@link DEFAULT_SKIPPED_NAMES}. */
  skip?: readonly string[];
  /** How long a built tree is reused. Default 5 minutes. */
  ttlMs?: number;
  clock?: Clock;
}

/**
 * A cached workspace tree.
 *
 * ```ts
 * const tree = new WorkspaceTree({ root: '/repo', list: async (dir) =>
 *   (await readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, isDirectory: e.isDirectory() })) });
 * await tree.get(); // "repo/\n\tsrc/\n\t\tindex.ts\n\tpackage.json"
 * ```
 */
export class WorkspaceTree {
  private readonly options: Required<Omit<WorkspaceTreeOptions, 'clock'>>;
  private readonly clock: Clock;
  private readonly skipped: ReadonlySet<string>;
  private cached: { text: string; at: number } | undefined;
  private building: Promise<string> | undefined;
  private epoch = 0;

  constructor(options: WorkspaceTreeOptions) {
    this.options = {
      root: options.root,
      list: options.list,
      depth: options.depth ?? 3,
      maxEntriesPerDir: options.maxEntriesPerDir ?? 50,
      skip: options.skip ?? DEFAULT_SKIPPED_NAMES,
      ttlMs: options.ttlMs ?? 5 * 60_000,
    };
    this.clock = options.clock ?? systemClock;
    this.skipped = new Set(this.options.skip);
  }

  /** The tree, from the cache when younger than the TTL. Concurrent calls share one build. */
  get(): Promise<string> {
    const now = this.clock.now();
    if (this.cached && now - this.cached.at < this.options.ttlMs) return Promise.resolve(this.cached.text);
    if (this.building) return this.building;
    const epoch = this.epoch;
    const building = this.render().then((text) => {
      if (epoch === this.epoch) this.cached = { text, at: now };
      return text;
    });
    this.building = building;
    const clear = () => {
      if (this.building === building) this.building = undefined;
    };
    building.then(clear, clear);
    return building;
  }

  /** Drops the cached tree (after the workspace changed); the next {@link WorkspaceTree.get} rebuilds it. */
  invalidate(): void {
    this.cached = undefined;
    this.building = undefined;
    this.epoch++;
  }

  private async render(): Promise<string> {
    const { root } = this.options;
    const lines = [`${baseName(root)}/`];
    await this.renderDir(root, 1, lines);
    return lines.join('\n');
  }

  private async renderDir(path: string, level: number, lines: string[]): Promise<void> {
    const indent = '\t'.repeat(level);
    let entries: WorkspaceEntry[];
    try {
      entries = await this.options.list(path);
    } catch (error) {
      lines.push(`${indent}(unreadable: ${errorMessage(error)})`);
      return;
    }
    const visible = entries
      .filter((e) => !e.name.startsWith('.') && !this.skipped.has(e.name))
      .sort((a, b) =>
        a.isDirectory === b.isDirectory ? compareNames(a.name, b.name) : a.isDirectory ? -1 : 1,
      );
    const shown = visible.slice(0, this.options.maxEntriesPerDir);
    for (const entry of shown) {
      if (!entry.isDirectory) {
        lines.push(`${indent}${entry.name}`);
        continue;
      }
      lines.push(`${indent}${entry.name}/`);
      if (level < this.options.depth) await this.renderDir(joinPath(path, entry.name), level + 1, lines);
    }
    const hidden = visible.length - shown.length;
    if (hidden > 0) lines.push(`${indent}... (${hidden} more items)`);
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1) || trimmed;
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}
