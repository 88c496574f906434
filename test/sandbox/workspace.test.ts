import { mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalProcessSandbox } from '../../src/sandbox/local.js';
import { Workspace } from '../../src/sandbox/workspace.js';

describe('workspace confinement', () => {
  let sandbox: LocalProcessSandbox;
  let outside: string;
  beforeEach(async () => {
    sandbox = await LocalProcessSandbox.create();
    outside = await mkdtemp(join(tmpdir(), 'tandem-outside-'));
    await writeFile(join(outside, 'secret.txt'), 'secret');
  });
  afterEach(async () => {
    await sandbox.dispose();
    await rm(outside, { recursive: true, force: true });
  });

  it('refuses paths that climb out with ..', async () => {
    for (const path of ['../x', 'a/../../x', '..', './../secret.txt']) {
      await expect(sandbox.readFile(path)).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.writeFile(path, 'x')).rejects.toMatchObject({ kind: 'path_escape' });
    }
    await expect(sandbox.listFiles('..')).rejects.toMatchObject({ kind: 'path_escape' });
    await expect(sandbox.exec('pwd', { cwd: '../' })).rejects.toMatchObject({ kind: 'path_escape' });
  });

  it('refuses absolute paths outside the workspace and accepts those inside', async () => {
    await expect(sandbox.readFile(join(outside, 'secret.txt'))).rejects.toMatchObject({
      kind: 'path_escape',
    });
    await expect(sandbox.writeFile('/etc/tandem-x', 'x')).rejects.toMatchObject({ kind: 'path_escape' });
    await sandbox.writeFile(join(sandbox.root, 'in.txt'), 'in');
    expect(await sandbox.readFile('in.txt')).toBe('in');
  });

  it('refuses reads and writes through a symlink that points outside', async () => {
    await symlink(join(outside, 'secret.txt'), join(sandbox.root, 'file-link'));
    await symlink(outside, join(sandbox.root, 'dir-link'));
    await symlink(`../../../../../../../../../..${outside}`, join(sandbox.root, 'relative-link'));
    for (const path of ['file-link', 'dir-link/secret.txt', 'relative-link/secret.txt']) {
      await expect(sandbox.readFile(path)).rejects.toMatchObject({ kind: 'path_escape' });
      await expect(sandbox.writeFile(path, 'pwned')).rejects.toMatchObject({ kind: 'path_escape' });
    }
    await expect(sandbox.writeFile('dir-link/new.txt', 'x')).rejects.toMatchObject({ kind: 'path_escape' });
    await expect(sandbox.listFiles('dir-link')).rejects.toMatchObject({ kind: 'path_escape' });
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('refuses a dangling symlink that would create a file outside', async () => {
    await symlink(join(outside, 'created.txt'), join(sandbox.root, 'dangling'));
    await expect(sandbox.writeFile('dangling', 'x')).rejects.toMatchObject({ kind: 'path_escape' });
    await expect(readFile(join(outside, 'created.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('follows symlinks that stay inside the workspace', async () => {
    await sandbox.writeFile('real/data.txt', 'data');
    await symlink('real', join(sandbox.root, 'alias'));
    expect(await sandbox.readFile('alias/data.txt')).toBe('data');
    await sandbox.writeFile('alias/more.txt', 'more');
    expect(await sandbox.readFile('real/more.txt')).toBe('more');
  });

  it('creates parent directories on write and lists recursively, sorted, symlinks left out', async () => {
    await sandbox.writeFile('.tandem/todo.md', '# Task Plan\n');
    await sandbox.writeFile('b/c/d.txt', 'abc');
    await sandbox.writeFile('a.bin', new Uint8Array([0, 1, 2]));
    await symlink('a.bin', join(sandbox.root, 'link'));
    expect(await sandbox.listFiles('.', { recursive: true })).toEqual([
      { path: '.tandem', type: 'directory', size: 0 },
      { path: '.tandem/todo.md', type: 'file', size: 12 },
      { path: 'a.bin', type: 'file', size: 3 },
      { path: 'b', type: 'directory', size: 0 },
      { path: 'b/c', type: 'directory', size: 0 },
      { path: 'b/c/d.txt', type: 'file', size: 3 },
    ]);
    expect(await sandbox.listFiles('b')).toEqual([{ path: 'b/c', type: 'directory', size: 0 }]);
    expect(Array.from(await sandbox.readBytes('a.bin'))).toEqual([0, 1, 2]);
  });

  it('reports missing files, directories and oversized files with typed errors', async () => {
    await expect(sandbox.readFile('nope.txt')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(sandbox.listFiles('nope')).rejects.toMatchObject({ kind: 'not_found' });
    await sandbox.writeFile('dir/x', '');
    await expect(sandbox.readFile('dir')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(sandbox.writeFile('dir', 'x')).rejects.toMatchObject({ kind: 'invalid' });
    const small = await LocalProcessSandbox.create({ maxReadBytes: 10 });
    await small.writeFile('big.txt', 'x'.repeat(11));
    await expect(small.readFile('big.txt')).rejects.toMatchObject({ kind: 'too_large' });
    await small.dispose();
  });

  it('maps a file used as a directory to a typed error, never a raw system one', async () => {
    await sandbox.writeFile('f', 'x');
    await expect(sandbox.readFile('f/x')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(sandbox.writeFile('f/x', 'y')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(sandbox.listFiles('f')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(sandbox.readFile('missing/x')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('refuses a FIFO the sandbox made instead of blocking on it', async () => {
    await sandbox.exec('mkfifo pipe');
    await expect(sandbox.readFile('pipe')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(sandbox.writeFile('pipe', 'x')).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('stats through links inside, naming the resolved path', async () => {
    const workspace = new Workspace(sandbox.root);
    await sandbox.writeFile('real/data.txt', 'data');
    await symlink('real', join(sandbox.root, 'alias'));
    await symlink(outside, join(sandbox.root, 'out'));
    expect(await workspace.stat('alias/data.txt')).toEqual({ path: 'real/data.txt', type: 'file', size: 4 });
    expect(await workspace.stat('alias')).toEqual({ path: 'real', type: 'directory', size: 0 });
    await expect(workspace.stat('nope')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(workspace.stat('out/secret.txt')).rejects.toMatchObject({ kind: 'path_escape' });
  });

  it('removes files, trees and links (never their targets), and empties the root', async () => {
    const workspace = new Workspace(sandbox.root);
    await sandbox.writeFile('tree/a/b.txt', 'b');
    await sandbox.writeFile('keep.txt', 'k');
    await symlink(outside, join(sandbox.root, 'tree/out'));
    await symlink(join(outside, 'secret.txt'), join(sandbox.root, 'file-link'));
    await workspace.remove('file-link');
    await workspace.remove('tree');
    await workspace.remove('never-was');
    expect(await sandbox.listFiles('.', { recursive: true })).toEqual([
      { path: 'keep.txt', type: 'file', size: 1 },
    ]);
    await expect(workspace.remove('../x')).rejects.toMatchObject({ kind: 'path_escape' });
    await workspace.remove('.');
    expect(await readdir(sandbox.root)).toEqual([]);
    expect(await readdir(outside)).toEqual(['secret.txt']);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'gives a tree to an owner without following links out of it',
    async () => {
      const workspace = new Workspace(sandbox.root);
      await sandbox.writeFile('tree/a/b.txt', 'b');
      await symlink(outside, join(sandbox.root, 'tree/out'));
      await workspace.chown('tree', { uid: 65534, gid: 65534 }, { recursive: true });
      expect((await stat(join(sandbox.root, 'tree/a/b.txt'))).uid).toBe(65534);
      expect((await stat(join(sandbox.root, 'tree/a'))).uid).toBe(65534);
      expect((await stat(outside)).uid).toBe(0);
      expect((await stat(join(outside, 'secret.txt'))).uid).toBe(0);
    },
  );
});
