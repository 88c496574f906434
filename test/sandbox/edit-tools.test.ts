import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/core/event-bus.js';
import { Executor } from '../../src/index.js';
import {
  createSandboxTools,
  LocalProcessSandbox,
  LocalSnapshotStorage,
  RollbackPoints,
  SandboxError,
} from '../../src/sandbox/index.js';
import { FakeClock, ScriptedModel } from '../../src/testing/index.js';
import type { Tool, ToolContext } from '../../src/tools/types.js';

function ctx(sandbox: LocalProcessSandbox, toolCallId = 'call_1'): ToolContext {
  const bus = new EventBus({ runId: 'run_1', clock: new FakeClock() });
  return { signal: new AbortController().signal, runId: 'run_1', toolCallId, emit: bus, sandbox };
}

/** A tool by name, its `execute` always a promise. */
function byName(tools: Tool[], name: string) {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return { ...tool, execute: async (args: unknown, ctx: ToolContext) => tool.execute(args, ctx) };
}

/** A real unified diff of `before` → `after`, as `git diff --no-index` prints it. */
async function gitDiff(dir: string, files: Record<string, [string | null, string]>): Promise<string> {
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  await rm(a, { recursive: true, force: true });
  await rm(b, { recursive: true, force: true });
  await promisify(execFile)('mkdir', ['-p', a, b]);
  for (const [name, [before, after]] of Object.entries(files)) {
    if (before !== null) await writeFile(join(a, name), before);
    await writeFile(join(b, name), after);
  }
  const result = await promisify(execFile)('git', ['diff', '--no-index', '--no-prefix', 'a', 'b'], {
    cwd: dir,
  }).catch((error: { stdout: string }) => error);
  // --no-prefix paths are a/<name> and b/<name>: exactly git's own a/ b/ prefixes.
  return result.stdout;
}

describe('edit_file and apply_patch', () => {
  let sandbox: LocalProcessSandbox;
  let tools: Tool[];
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'tandem-edit-test-'));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));
  beforeEach(async () => {
    sandbox = await LocalProcessSandbox.create();
    tools = createSandboxTools(sandbox);
  });
  afterEach(() => sandbox.dispose());

  it('replaces text that appears once and names the line', async () => {
    await sandbox.writeFile('app.py', 'def f():\n    return 1\n');
    const edit = byName(tools, 'edit_file');
    const out = await edit.execute(
      { path: 'app.py', old_string: 'return 1', new_string: 'return 2' },
      ctx(sandbox),
    );
    expect(out).toBe('Edited app.py: replaced 1 occurrence (line 2)');
    expect(await sandbox.readFile('app.py')).toBe('def f():\n    return 2\n');
  });

  it('refuses ambiguous text unless replace_all, leaving the file as it was', async () => {
    await sandbox.writeFile('x.txt', 'a\nb\na\n');
    const edit = byName(tools, 'edit_file');
    await expect(
      edit.execute({ path: 'x.txt', old_string: 'a', new_string: 'c' }, ctx(sandbox)),
    ).rejects.toThrow(/appears 2 times \(lines 1, 3\)/);
    expect(await sandbox.readFile('x.txt')).toBe('a\nb\na\n');
    await edit.execute({ path: 'x.txt', old_string: 'a', new_string: 'c', replace_all: true }, ctx(sandbox));
    expect(await sandbox.readFile('x.txt')).toBe('c\nb\nc\n');
  });

  it('says when missing text differs only in whitespace', async () => {
    await sandbox.writeFile('y.py', 'if x:\n\treturn 1\n');
    const edit = byName(tools, 'edit_file');
    const error = await edit
      .execute({ path: 'y.py', old_string: 'if x:\n    return 1', new_string: 'pass' }, ctx(sandbox))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).kind).toBe('not_found');
    expect((error as Error).message).toMatch(/spaces and tabs are ignored/);
  });

  it('applies a real multi-file git diff, creating new files', async () => {
    await sandbox.writeFile('one.txt', 'alpha\nbeta\ngamma\n');
    await sandbox.writeFile('two.txt', '1\n2\n3\n');
    const patch = await gitDiff(scratch, {
      'one.txt': ['alpha\nbeta\ngamma\n', 'alpha\nBETA\ngamma\n'],
      'two.txt': ['1\n2\n3\n', '1\n2\n3\n4\n'],
      'new.txt': [null, 'fresh\n'],
    });
    const out = await byName(tools, 'apply_patch').execute({ patch }, ctx(sandbox));
    expect(out).toMatch(/^Applied patch to 3 files \(\+3 -1\)/);
    expect(await sandbox.readFile('one.txt')).toBe('alpha\nBETA\ngamma\n');
    expect(await sandbox.readFile('two.txt')).toBe('1\n2\n3\n4\n');
    expect(await sandbox.readFile('new.txt')).toBe('fresh\n');
  });

  it('writes nothing when one hunk of a patch does not apply, and names that hunk', async () => {
    await sandbox.writeFile('one.txt', 'alpha\nbeta\ngamma\n');
    await sandbox.writeFile('two.txt', 'changed since the patch was made\n');
    const patch = await gitDiff(scratch, {
      'one.txt': ['alpha\nbeta\ngamma\n', 'alpha\nBETA\ngamma\n'],
      'two.txt': ['1\n2\n3\n', '1\n2\n3\n4\n'],
    });
    const error = await byName(tools, 'apply_patch')
      .execute({ patch }, ctx(sandbox))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as Error).message).toMatch(
      /hunk @@ -1,3 \+1,4 @@ does not match two\.txt; nothing was written/,
    );
    expect(await sandbox.readFile('one.txt')).toBe('alpha\nbeta\ngamma\n');
  });

  it('refuses patches that are not diffs, delete files, or leave the workspace', async () => {
    const apply = byName(tools, 'apply_patch');
    await expect(apply.execute({ patch: 'just some text' }, ctx(sandbox))).rejects.toThrow(/no hunks/);
    const deletion = '--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n';
    await expect(apply.execute({ patch: deletion }, ctx(sandbox))).rejects.toThrow(
      /deleting gone\.txt is not supported/,
    );
    const outside = '--- /dev/null\n+++ b/../../escape.txt\n@@ -0,0 +1 @@\n+x\n';
    const error = await apply.execute({ patch: outside }, ctx(sandbox)).catch((e: unknown) => e);
    expect((error as SandboxError).kind).toBe('path_escape');
  });
});

describe('rollback points', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tandem-rollback-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes one snapshot per turn before its first change, and restores a turn', async () => {
    const sandbox = await LocalProcessSandbox.create({
      snapshots: { storage: new LocalSnapshotStorage(dir) },
    });
    try {
      await sandbox.writeFile('notes.md', 'original\n');
      const rollback = new RollbackPoints();
      const model = new ScriptedModel([
        {
          toolCalls: [
            { name: 'write_file', args: { path: 'a.txt', content: 'A\n' } },
            { name: 'edit_file', args: { path: 'notes.md', old_string: 'original', new_string: 'turn one' } },
          ],
        },
        {
          toolCalls: [
            { name: 'edit_file', args: { path: 'notes.md', old_string: 'turn one', new_string: 'turn two' } },
          ],
        },
        { text: 'done' },
      ]);
      const executor = new Executor({ model, tools: createSandboxTools(sandbox, { rollback }) });
      const result = await executor.run('edit', { runId: 'r1' }).result;
      expect(result.status).toBe('success');
      expect(rollback.list().map((p) => p.id)).toEqual(['r1#1', 'r1#2']);
      expect(await sandbox.readFile('notes.md')).toBe('turn two\n');

      await rollback.restore(sandbox, 'r1#2');
      expect(await sandbox.readFile('notes.md')).toBe('turn one\n');
      await rollback.restore(sandbox, 'r1#1');
      expect(await sandbox.readFile('notes.md')).toBe('original\n');
      await expect(sandbox.readFile('a.txt')).rejects.toThrow(/No such file/);
      await expect(rollback.restore(sandbox, 'r1#9')).rejects.toThrow(
        /No rollback point r1#9; kept: r1#1, r1#2/,
      );
    } finally {
      await sandbox.dispose();
    }
  });

  it('fails the write with a typed error when the sandbox cannot snapshot', async () => {
    const sandbox = await LocalProcessSandbox.create();
    try {
      const bare = {
        ...sandbox,
        id: sandbox.id,
        snapshot: undefined,
        readFile: sandbox.readFile.bind(sandbox),
        writeFile: sandbox.writeFile.bind(sandbox),
      };
      const write = byName(
        createSandboxTools(bare as never, { rollback: new RollbackPoints() }),
        'write_file',
      );
      const error = await write.execute({ path: 'x', content: 'y' }, ctx(sandbox)).catch((e: unknown) => e);
      expect((error as SandboxError).kind).toBe('unavailable');
      expect((error as Error).message).toMatch(/cannot snapshot its workspace/);
      expect(await readFile(join(sandbox.root, 'x'), 'utf8').catch(() => 'absent')).toBe('absent');
    } finally {
      await sandbox.dispose();
    }
  });
});
