/**
 * Long-term memory on the embedded store, passed whole as `memory.store`:
 * its `workingMemory` and `vectors` are found there, working memory and
 * recall work on the real engine, and `deleteResource` clears the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteResource, Executor, type SystemPart } from '../../src/index.js';
import { openPgliteStore, type SqlStore } from '../../src/pglite/index.js';
import { HashEmbedder, ScriptedModel, testRuntime } from '../../src/testing/index.js';

let store: SqlStore;
beforeAll(async () => {
  store = await openPgliteStore();
});
afterAll(async () => {
  await store?.close();
});

describe('memory on the embedded store', () => {
  it('keeps working memory and recalls an earlier thread through the store facets', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'update_working_memory', args: { memory: 'Allergic to peanuts.' } }] },
      { text: 'Noted your peanut allergy.' },
      { text: 'A peanut-free curry.' },
    ]);
    const memory = { store, recall: { embedder: new HashEmbedder(), minScore: 0.2 } };
    const executor = new Executor({ model, instructions: 'Cook.', memory, runtime: testRuntime() });
    await executor.run('I have a peanut allergy', { resourceId: 'pg-user', threadId: 'a' }).result;
    await executor.run('A curry for my peanut allergy?', { resourceId: 'pg-user', threadId: 'b' }).result;
    const system = (model.requests[2]!.system as SystemPart[]).map((p) => p.text).join('\n');
    expect(system).toContain('<working_memory>\nAllergic to peanuts.\n</working_memory>');
    expect(system).toContain('[thread a, 1970-01-01T00:00:00.000Z] user: I have a peanut allergy');
    await deleteResource('pg-user', [store]);
    expect(await store.workingMemory.get('pg-user')).toBeUndefined();
    const left = await store.vectors.query({
      vector: new HashEmbedder().vectorOf('peanut'),
      topK: 5,
      resourceId: 'pg-user',
    });
    expect(left).toEqual([]);
  });
});
