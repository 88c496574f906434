import { describe, expect, it } from 'vitest';
import { type WorkspaceEntry, WorkspaceTree } from '../../src/context/workspace-tree.js';
import { FakeClock } from '../../src/testing/fake-clock.js';

type Tree = { [name: string]: Tree | null };

function lister(tree: Tree, calls: string[] = []) {
  return async (path: string): Promise<WorkspaceEntry[]> => {
    calls.push(path);
    let node: Tree | null | undefined = tree;
    for (const part of path.split('/').slice(2)) node = node?.[part];
    if (!node) throw new Error(`ENOENT ${path}`);
    return Object.entries(node).map(([name, child]) => ({ name, isDirectory: child !== null }));
  };
}

describe('WorkspaceTree', () => {
  it('lists directories first, then files, alphabetically, indented by tabs', async () => {
    const tree = new WorkspaceTree({
      root: '/repo',
      list: lister({ 'b.ts': null, src: { 'index.ts': null }, 'a.md': null, docs: {} }),
    });
    expect(await tree.get()).toBe('repo/\n\tdocs/\n\tsrc/\n\t\tindex.ts\n\ta.md\n\tb.ts');
  });

  it('skips dot-names and build or dependency directories', async () => {
    const tree = new WorkspaceTree({
      root: '/repo',
      list: lister({
        '.git': {},
        '.env': null,
        node_modules: {},
        dist: {},
        build: {},
        __pycache__: {},
        venv: {},
        '.venv': {},
        src: {},
      }),
    });
    expect(await tree.get()).toBe('repo/\n\tsrc/');
  });

  it('stops at the depth limit (default 3)', async () => {
    const tree = new WorkspaceTree({
      root: '/r',
      list: lister({ a: { b: { c: { d: { 'deep.txt': null } } } } }),
    });
    expect(await tree.get()).toBe('r/\n\ta/\n\t\tb/\n\t\t\tc/');
  });

  it('shows at most 50 entries per directory and counts the rest', async () => {
    const files: Tree = {};
    for (let i = 0; i < 53; i++) files[`f${String(i).padStart(2, '0')}`] = null;
    const text = await new WorkspaceTree({ root: '/r', list: lister(files) }).get();
    const lines = text.split('\n');
    expect(lines).toHaveLength(1 + 50 + 1);
    expect(lines.at(-1)).toBe('\t... (3 more items)');
  });

  it('reuses the tree for 5 minutes, then rebuilds it', async () => {
    const clock = new FakeClock(1_000);
    const calls: string[] = [];
    const tree = new WorkspaceTree({ root: '/r', list: lister({ a: null }, calls), clock });
    await tree.get();
    await clock.advance(5 * 60_000 - 1);
    await tree.get();
    expect(calls).toHaveLength(1);
    await clock.advance(1);
    await tree.get();
    expect(calls).toHaveLength(2);
  });

  it('rebuilds after invalidate()', async () => {
    const calls: string[] = [];
    const tree = new WorkspaceTree({ root: '/r', list: lister({ a: null }, calls), clock: new FakeClock() });
    await tree.get();
    tree.invalidate();
    await tree.get();
    expect(calls).toHaveLength(2);
  });

  it('shares one build between concurrent calls', async () => {
    const calls: string[] = [];
    const tree = new WorkspaceTree({ root: '/r', list: lister({ a: null }, calls), clock: new FakeClock() });
    await Promise.all([tree.get(), tree.get(), tree.get()]);
    expect(calls).toHaveLength(1);
  });

  it('shows an unreadable directory instead of failing', async () => {
    const list = async (path: string): Promise<WorkspaceEntry[]> => {
      if (path === '/r') return [{ name: 'locked', isDirectory: true }];
      throw new Error('EACCES');
    };
    expect(await new WorkspaceTree({ root: '/r', list }).get()).toBe(
      'r/\n\tlocked/\n\t\t(unreadable: EACCES)',
    );
  });
});
