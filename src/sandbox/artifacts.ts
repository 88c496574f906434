/**
 * Handoff artifacts: files copied from one sandbox to another by glob
 * patterns, within a file-count and a byte budget, so a handing-off agent's
 * results reach the next agent's workspace.
 * @module
 */

import { errorMessage } from '../core/errors.js';
import type { FileEntry, Sandbox } from '../core/sandbox.js';
import { globMatcher } from './glob.js';

/** Default patterns: the seeds' source, data and document types. */
export const DEFAULT_ARTIFACT_PATTERNS: readonly string[] = [
  '*.py',
  '*.csv',
  '*.json',
  '*.txt',
  '*.md',
  '*.html',
  '*.js',
  '*.ts',
];

/** Options of {@link transferArtifacts}. */
export interface TransferOptions {
  /** Globs over workspace-relative paths (`*`, `**`, `?`); a pattern without `/` matches file names at any depth. Default {@link DEFAULT_ARTIFACT_PATTERNS}. */
  patterns?: readonly string[];
  /** Files copied at most. Default 10. */
  maxFiles?: number;
  /** Bytes copied at most, in total. Default 50 MB. */
  maxBytes?: number;
  /** Directory of the source searched. Default the workspace root. */
  from?: string;
  /** Directory of the target the files land in, keeping their relative paths. Default the workspace root. */
  to?: string;
}

/** A file copied, or one left behind and why. */
export interface ArtifactRecord {
  path: string;
  size: number;
}

/** What {@link transferArtifacts} did. */
export interface TransferResult {
  transferred: ArtifactRecord[];
  skipped: Array<ArtifactRecord & { reason: 'max_files' | 'max_bytes' | 'error'; error?: string }>;
  bytes: number;
}

/** A sandbox that can read bytes (binary artifacts survive); others are read as text. */
interface BytesReader {
  readBytes(path: string): Promise<Uint8Array>;
}

/**
 * Copies the files of `from` matching the patterns into `to`, in path
 * order, until `maxFiles` or `maxBytes` is reached. Files past a limit, and
 * files that fail to copy, are reported in `skipped` — never silently lost.
 * Tandem's own `.tandem/` directory is never copied.
 */
export async function transferArtifacts(
  from: Sandbox,
  to: Sandbox,
  options: TransferOptions = {},
): Promise<TransferResult> {
  const maxFiles = options.maxFiles ?? 10;
  const maxBytes = options.maxBytes ?? 50 * 1024 * 1024;
  const base = (options.from ?? '.').replace(/^\.\/?/, '').replace(/\/+$/, '');
  const matches = globMatcher(options.patterns ?? DEFAULT_ARTIFACT_PATTERNS);
  const entries = await from.listFiles(options.from ?? '.', { recursive: true });
  const candidates = entries.filter(
    (e: FileEntry) => e.type === 'file' && !isInternal(e.path) && matches(relativeTo(base, e.path)),
  );
  const result: TransferResult = { transferred: [], skipped: [], bytes: 0 };
  for (const entry of candidates) {
    const record = { path: entry.path, size: entry.size };
    if (result.transferred.length >= maxFiles) {
      result.skipped.push({ ...record, reason: 'max_files' });
    } else if (result.bytes + entry.size > maxBytes) {
      result.skipped.push({ ...record, reason: 'max_bytes' });
    } else {
      try {
        const content =
          'readBytes' in from
            ? await (from as Sandbox & BytesReader).readBytes(entry.path)
            : await from.readFile(entry.path);
        const target = options.to
          ? `${options.to.replace(/\/+$/, '')}/${relativeTo(base, entry.path)}`
          : relativeTo(base, entry.path);
        await to.writeFile(target, content);
        result.transferred.push(record);
        result.bytes += entry.size;
      } catch (error) {
        result.skipped.push({ ...record, reason: 'error', error: errorMessage(error) });
      }
    }
  }
  return result;
}

function isInternal(path: string): boolean {
  return path === '.tandem' || path.startsWith('.tandem/');
}

function relativeTo(base: string, path: string): string {
  return base && path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}
