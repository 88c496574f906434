/**
 * `deleteResource(id, stores)`: a user's threads, working memory, vectors
 * and the checkpoints filed under them go; other users' data stays; a store
 * that fails is named after every other store was cleared.
 */
import { describe, expect, it } from 'vitest';
import {
  deleteResource,
  InMemoryMemoryStore,
  InMemorySessionStore,
  MemoryCheckpointStore,
  SessionError,
  userMessage,
} from '../../src/index.js';

const vector = (resourceId: string, id: string) => ({
  id,
  vector: [1, 0],
  resourceId,
  threadId: `${resourceId}-thread`,
  text: id,
  createdAt: 1,
});

async function filled() {
  const sessions = new InMemorySessionStore();
  const memory = new InMemoryMemoryStore();
  const checkpoints = new MemoryCheckpointStore<unknown>();
  for (const user of ['u1', 'u2']) {
    await sessions.session(`${user}-thread`, { resourceId: user }).append([userMessage(`hi from ${user}`)]);
    await memory.set(user, `notes of ${user}`);
    await memory.upsert([vector(user, `${user}-v`)]);
    await checkpoints.save(`${user}-run`, { runId: `${user}-run`, resourceId: user });
  }
  await checkpoints.save('anonymous-run', { runId: 'anonymous-run' });
  return { sessions, memory, checkpoints };
}

describe('deleteResource', () => {
  it("removes the user's threads, working memory, vectors and checkpoints, and nothing of others", async () => {
    const { sessions, memory, checkpoints } = await filled();
    const report = await deleteResource('u1', [sessions, memory, checkpoints, memory]);
    expect(report).toEqual({ stores: 3, checkpoints: ['u1-run'] });
    expect(await sessions.threads('u1')).toEqual([]);
    expect((await sessions.session('u1-thread').load()).items).toEqual([]);
    expect(await memory.get('u1')).toBeUndefined();
    expect(await memory.query({ vector: [1, 0], topK: 5, resourceId: 'u1' })).toEqual([]);
    expect((await checkpoints.list()).sort()).toEqual(['anonymous-run', 'u2-run']);
    expect(await sessions.threads('u2')).toEqual(['u2-thread']);
    expect((await memory.get('u2'))?.value).toBe('notes of u2');
    expect(await memory.query({ vector: [1, 0], topK: 5, resourceId: 'u2' })).toHaveLength(1);
  });

  it('clears a working memory store that has no deleteResource of its own', async () => {
    const notes = new InMemoryMemoryStore();
    await notes.set('u1', 'x');
    const onlyWorking = {
      get: notes.get.bind(notes),
      set: notes.set.bind(notes),
      delete: notes.delete.bind(notes),
    };
    await deleteResource('u1', [onlyWorking]);
    expect(await notes.get('u1')).toBeUndefined();
  });

  it('names a store that failed, after clearing the others', async () => {
    const { sessions, memory } = await filled();
    const broken = {
      async deleteResource() {
        throw new Error('connection refused');
      },
    };
    const error = await deleteResource('u1', [broken, sessions, memory]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({ kind: 'unavailable' });
    expect((error as Error).message).toMatch(/u1.*1 store\(s\) failed.*connection refused/);
    expect(await sessions.threads('u1')).toEqual([]);
    expect(await memory.get('u1')).toBeUndefined();
  });

  it('refuses an invalid id', async () => {
    const { memory } = await filled();
    await expect(deleteResource('', [memory])).rejects.toMatchObject({
      name: 'SessionError',
      kind: 'invalid_id',
    });
  });
});
