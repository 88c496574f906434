/**
 * Editing files in place: `edit_file` (exact search and replace, refused
 * when the text is missing or ambiguous) and `apply_patch` (a unified diff
 * over one or more files, all or nothing). Both beat rewriting a whole file
 * with `write_file`: the model sends only the change, and a stale view of
 * the file fails loudly instead of silently undoing someone's edit.
 * @module
 */
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { z } from 'zod/v4';
import type { Sandbox } from '../core/sandbox.js';
import { defineTool, type Tool, type ToolContext } from '../tools/types.js';
import { SandboxError } from './errors.js';

/** Picks the sandbox of a call and takes the turn's rollback point when configured. */
export type PrepareWrite = (ctx: ToolContext) => Promise<Sandbox>;

/** `edit_file` and `apply_patch` over the sandbox `prepare` picks. */
export function createEditTools(prepare: PrepareWrite): Tool[] {
  return [
    defineTool({
      name: 'edit_file',
      description:
        'Replace an exact piece of text in a workspace file. `old_string` must appear exactly once (include surrounding lines to make it unique) unless `replace_all` is true. Read the file first; whitespace must match.',
      parameters: z.object({
        path: z.string().describe('File path relative to the workspace'),
        old_string: z.string().min(1).describe('The exact text to replace'),
        new_string: z.string().describe('The text to put in its place'),
        replace_all: z.boolean().optional().describe('Replace every occurrence; default false'),
      }),
      risk: 'moderate',
      execute: async ({ path, old_string, new_string, replace_all }, ctx) => {
        if (old_string === new_string) {
          throw new SandboxError('invalid', `edit_file on ${path}: old_string and new_string are the same`);
        }
        const sandbox = await prepare(ctx);
        const source = await sandbox.readFile(path);
        const lines = occurrenceLines(source, old_string);
        if (lines.length === 0) throw notFound(path, source, old_string);
        if (lines.length > 1 && !replace_all) {
          throw new SandboxError(
            'invalid',
            `edit_file on ${path}: old_string appears ${lines.length} times (lines ${lines.join(', ')}); include more surrounding text to pick one, or set replace_all`,
          );
        }
        await sandbox.writeFile(path, source.split(old_string).join(new_string));
        ctx.emit.emit('workspace_update', { paths: [path], change: 'edit' });
        const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
        return `Edited ${path}: replaced ${lines.length} occurrence${lines.length === 1 ? '' : 's'} (${where})`;
      },
    }),
    defineTool({
      name: 'apply_patch',
      description:
        'Apply a unified diff (as `diff -u` or `git diff` print it) to one or more workspace files. Every hunk must apply, or nothing is written. A file is created when its old name is /dev/null. Deleting files is not supported.',
      parameters: z.object({
        patch: z.string().min(1).describe('The unified diff: ---/+++ headers and @@ hunks'),
      }),
      risk: 'moderate',
      execute: async ({ patch }, ctx) => {
        const files = parseFiles(patch);
        const sandbox = await prepare(ctx);
        const changes = await planChanges(sandbox, files);
        await writeAll(sandbox, changes);
        ctx.emit.emit('workspace_update', { paths: changes.map((c) => c.path), change: 'patch' });
        const added = sum(files, '+');
        const removed = sum(files, '-');
        const names = changes.map((c) => (c.before === undefined ? `${c.path} (new)` : c.path)).join(', ');
        return `Applied patch to ${changes.length} file${changes.length === 1 ? '' : 's'} (+${added} -${removed}): ${names}`;
      },
    }),
  ];
}

/** 1-based line numbers where `needle` starts, for each occurrence. */
function occurrenceLines(source: string, needle: string): number[] {
  const lines: number[] = [];
  for (let at = source.indexOf(needle); at !== -1; at = source.indexOf(needle, at + needle.length)) {
    lines.push(lineAt(source, at));
  }
  return lines;
}

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/** The usual cause of a miss is indentation or trailing spaces: say so when that is it. */
function notFound(path: string, source: string, needle: string): SandboxError {
  const squash = (text: string) => text.replace(/[ \t]+/g, ' ').replace(/ ?\n ?/g, '\n');
  const hint = squash(source).includes(squash(needle))
    ? ' (it matches when spaces and tabs are ignored: copy the whitespace exactly)'
    : '; read the file again, it may have changed';
  return new SandboxError('not_found', `edit_file on ${path}: old_string was not found${hint}`);
}

interface FileChange {
  path: string;
  /** Undefined for a file the patch creates. */
  before: string | undefined;
  after: string;
}

function parseFiles(patch: string): StructuredPatch[] {
  let files: StructuredPatch[];
  try {
    files = parsePatch(patch);
  } catch (error) {
    throw new SandboxError('invalid', `apply_patch: not a unified diff: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const withHunks = files.filter((file) => file.hunks.length > 0);
  if (withHunks.length === 0) {
    throw new SandboxError(
      'invalid',
      'apply_patch: the patch has no hunks (expected ---/+++ headers and @@ lines)',
    );
  }
  return withHunks;
}

/** Applies every file's hunks in memory first, so a hunk that fails anywhere writes nothing. */
async function planChanges(sandbox: Sandbox, files: StructuredPatch[]): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  for (const file of files) {
    const target = stripPrefix(file.newFileName);
    if (target === '/dev/null') {
      throw new SandboxError(
        'invalid',
        `apply_patch: deleting ${stripPrefix(file.oldFileName)} is not supported`,
      );
    }
    if (!target) throw new SandboxError('invalid', 'apply_patch: a file section has no +++ name');
    const creates = stripPrefix(file.oldFileName) === '/dev/null';
    const before = creates ? undefined : await readExisting(sandbox, target);
    if (creates && (await exists(sandbox, target))) {
      throw new SandboxError(
        'invalid',
        `apply_patch: ${target} already exists; the patch creates it (--- /dev/null)`,
      );
    }
    const after = applyPatch(before ?? '', file);
    if (after === false)
      throw new SandboxError('invalid', `apply_patch: ${failingHunk(before ?? '', file, target)}`);
    changes.push({ path: target, before, after });
  }
  return changes;
}

/** Names the first hunk that does not fit, for the model to fix just that one. */
function failingHunk(source: string, file: StructuredPatch, path: string): string {
  for (const hunk of file.hunks) {
    if (applyPatch(source, { ...file, hunks: [hunk] }) === false) {
      return `hunk @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@ does not match ${path}; nothing was written (read the file and make a new patch)`;
    }
  }
  return `the hunks for ${path} do not apply in order; nothing was written`;
}

/** Writes in order; when a write fails, puts back the files already written. */
async function writeAll(sandbox: Sandbox, changes: FileChange[]): Promise<void> {
  const done: FileChange[] = [];
  try {
    for (const change of changes) {
      await sandbox.writeFile(change.path, change.after);
      done.push(change);
    }
  } catch (error) {
    for (const change of done) {
      if (change.before !== undefined) await sandbox.writeFile(change.path, change.before).catch(() => {});
    }
    throw error;
  }
}

async function readExisting(sandbox: Sandbox, path: string): Promise<string> {
  try {
    return await sandbox.readFile(path);
  } catch (error) {
    if (error instanceof SandboxError && error.kind === 'not_found') {
      throw new SandboxError(
        'not_found',
        `apply_patch: ${path} does not exist (a new file needs --- /dev/null)`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

async function exists(sandbox: Sandbox, path: string): Promise<boolean> {
  try {
    await sandbox.readFile(path);
    return true;
  } catch (error) {
    if (error instanceof SandboxError && error.kind === 'not_found') return false;
    throw error;
  }
}

/** `a/src/x.ts` and `b/src/x.ts` (git's prefixes) name `src/x.ts`. */
function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  return /^[ab]\//.test(trimmed) ? trimmed.slice(2) : trimmed;
}

function sum(files: StructuredPatch[], sign: '+' | '-'): number {
  let count = 0;
  for (const file of files) {
    for (const hunk of file.hunks) for (const line of hunk.lines) if (line.startsWith(sign)) count++;
  }
  return count;
}
