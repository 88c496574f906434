/** The behaviour every CheckpointStore must have, as a reusable suite. */
import { describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../../src/state/checkpoint-store.js';

export function checkpointStoreContract(
  name: string,
  make: () => Promise<CheckpointStore> | CheckpointStore,
): void {
  describe(`${name} (CheckpointStore contract)`, () => {
    it('round-trips a state', async () => {
      const store = await make();
      const state = {
        version: 1,
        step: 'b',
        messages: [{ role: 'user', content: 'hi ✓' }],
        n: 1.5,
        ok: true,
        none: null,
      };
      await store.save('run_1', state);
      expect(await store.load('run_1')).toEqual(state);
    });

    it('loads undefined for an unknown run', async () => {
      const store = await make();
      expect(await store.load('run_missing')).toBeUndefined();
    });

    it('isolates stored state from later mutation, on save and on load', async () => {
      const store = await make();
      const state = { items: [1, 2] };
      await store.save('run_1', state);
      state.items.push(3);
      const loaded = (await store.load('run_1')) as { items: number[] };
      expect(loaded.items).toEqual([1, 2]);
      loaded.items.push(4);
      expect(await store.load('run_1')).toEqual({ items: [1, 2] });
    });

    it('replaces on save, keeps runs apart, lists and deletes', async () => {
      const store = await make();
      await store.save('run_a', { v: 1 });
      await store.save('run_a', { v: 2 });
      await store.save('run_b', { v: 3 });
      expect(await store.load('run_a')).toEqual({ v: 2 });
      expect((await store.list?.())?.sort()).toEqual(['run_a', 'run_b']);
      expect(await store.delete?.('run_a')).toBe(true);
      expect(await store.delete?.('run_a')).toBe(false);
      expect(await store.load('run_a')).toBeUndefined();
      expect(await store.list?.()).toEqual(['run_b']);
    });

    it('keeps ids with path and glob characters apart and lists them back', async () => {
      const store = await make();
      const ids = ['../escape', 'a/b', 'a*', 'x:y', '.', 'üñí'];
      for (const [i, id] of ids.entries()) await store.save(id, { i });
      for (const [i, id] of ids.entries()) expect(await store.load(id)).toEqual({ i });
      expect((await store.list?.())?.sort()).toEqual([...ids].sort());
    });

    it('saveIf saves only over the expected revision (or nothing), and says whether it saved', async () => {
      const store = await make();
      if (!store.saveIf) throw new Error(`${name} has no saveIf`);
      expect(await store.saveIf('run_cas', { revision: 1, v: 'a' }, 0)).toBe(true);
      expect(await store.saveIf('run_cas', { revision: 2, v: 'b' }, 0)).toBe(false);
      expect(await store.load('run_cas')).toEqual({ revision: 1, v: 'a' });
      expect(await store.saveIf('run_cas', { revision: 2, v: 'b' }, 1)).toBe(true);
      expect(await store.load('run_cas')).toEqual({ revision: 2, v: 'b' });
      await store.save('run_plain', { v: 'no revision' });
      expect(await store.saveIf('run_plain', { revision: 1 }, 0)).toBe(true);
    });

    it('of ten concurrent saveIf calls expecting the same revision, exactly one saves', async () => {
      const store = await make();
      if (!store.saveIf) throw new Error(`${name} has no saveIf`);
      await store.save('run_race', { revision: 3 });
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.saveIf!('run_race', { revision: 4, by: i }, 3)),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store.load('run_race')).toEqual({ revision: 4, by: outcomes.indexOf(true) });
    });

    it('rejects invalid run ids and unserialisable state with typed errors', async () => {
      const store = await make();
      await expect(store.save('', {})).rejects.toMatchObject({ kind: 'invalid_run_id' });
      await expect(store.load('a\nb')).rejects.toMatchObject({ kind: 'invalid_run_id' });
      await expect(store.save('run_1', { n: 1n })).rejects.toMatchObject({ kind: 'serialize' });
    });
  });
}
