/**
 * Long-term memory through the public API: working memory in the system
 * prompt and its update tool (schema, text, concurrent updates), semantic
 * recall of the user's other threads, and what failures do to a run.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
  ConfigError,
  type EmbeddingModel,
  Executor,
  InMemoryMemoryStore,
  ModelError,
  type SystemPart,
  SystemPromptBuilder,
  type TandemEvent,
} from '../../src/index.js';
import { FakeClock, HashEmbedder, ScriptedModel } from '../../src/testing/index.js';

const runtime = () => ({ clock: new FakeClock(Date.UTC(2026, 0, 2)) });
const systemParts = (model: ScriptedModel, call = 0) => model.requests[call]!.system as SystemPart[];
const systemText = (model: ScriptedModel, call = 0) =>
  systemParts(model, call)
    .map((p) => p.text)
    .join('\n\n');

function memoryEvents(events: TandemEvent[]) {
  return events.filter((e) => e.type === 'memory') as Array<TandemEvent<'memory'>>;
}

describe('working memory', () => {
  it('puts the stored notes in the system prompt after the cached prefix, as a cached part of their own', async () => {
    const store = new InMemoryMemoryStore();
    await store.set('u1', 'Name: Ada. Prefers metric units.');
    const model = new ScriptedModel([{ text: 'Hello Ada.' }]);
    const executor = new Executor({
      model,
      instructions: 'You are terse.',
      memory: { store },
      runtime: runtime(),
    });
    await executor.run('hi', { resourceId: 'u1', threadId: 't1' }).result;
    const parts = systemParts(model);
    expect(parts[0]).toEqual({ text: 'You are terse.', cache: true });
    expect(parts[1]!.cache).toBe(true);
    expect(parts[1]!.text).toContain('<working_memory>\nName: Ada. Prefers metric units.\n</working_memory>');
    expect(model.requests[0]!.tools?.map((t) => t.name)).toContain('update_working_memory');
  });

  it("goes between the prompt builder's cached prefix and its dynamic suffix, the prefix unchanged", async () => {
    const store = new InMemoryMemoryStore();
    await store.set('u1', 'Likes tea.');
    const model = new ScriptedModel([{ text: 'a' }, { text: 'b' }]);
    const builder = new SystemPromptBuilder({ os: 'linux', clock: new FakeClock(0) });
    const plain = await builder.build({ tools: [] });
    const executor = new Executor({ model, instructions: builder, memory: { store }, runtime: runtime() });
    await executor.run('hi', { resourceId: 'u1' }).result;
    await executor.run('hi again', { resourceId: 'u1' }).result;
    for (const call of [0, 1]) {
      const parts = systemParts(model, call);
      expect(parts).toHaveLength(3);
      expect(parts[0]!.cache).toBe(true);
      expect(parts[0]!.text.startsWith(plain.prefix.split('\n\n')[0]!)).toBe(true);
      expect(parts[1]).toMatchObject({ cache: true, text: expect.stringContaining('Likes tea.') });
      expect(parts[2]!.text).toContain('**Environment:**');
    }
    expect(systemParts(model, 1)[0]!.text).toBe(systemParts(model, 0)[0]!.text);
  });

  it('leaves a run without a resourceId as it was', async () => {
    const store = new InMemoryMemoryStore();
    await store.set('u1', 'secret notes');
    const model = new ScriptedModel([{ text: 'ok' }]);
    const executor = new Executor({ model, instructions: 'Be brief.', memory: { store } });
    await executor.run('hi').result;
    expect(model.requests[0]!.system).toBe('Be brief.');
  });

  it('shows the template to a user without notes, and the tool replaces the notes with text', async () => {
    const store = new InMemoryMemoryStore();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'update_working_memory', args: { memory: '# User\n- Name: Ada' } }] },
      { text: 'Noted.' },
    ]);
    const working = { template: '# User\n- Name:' };
    const executor = new Executor({ model, memory: { store, working }, runtime: runtime() });
    const run = executor.run('I am Ada', { resourceId: 'u1' });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    expect(systemText(model)).toContain('<working_memory>\n# User\n- Name:\n</working_memory>');
    expect(result.status).toBe('success');
    expect((await store.get('u1'))?.value).toBe('# User\n- Name: Ada');
    expect(memoryEvents(events).map((e) => [e.op, e.version])).toEqual([['working_memory', 1]]);
  });

  it('validates an update against the schema: an invalid one is a tool error the model can act on', async () => {
    const store = new InMemoryMemoryStore();
    const schema = z.object({ name: z.string(), units: z.enum(['metric', 'imperial']) });
    const model = new ScriptedModel([
      {
        toolCalls: [{ name: 'update_working_memory', args: { memory: { name: 'Ada', units: 'furlongs' } } }],
      },
      { toolCalls: [{ name: 'update_working_memory', args: { memory: { name: 'Ada', units: 'metric' } } }] },
      { text: 'Saved.' },
    ]);
    const executor = new Executor({ model, memory: { store, working: { schema } }, runtime: runtime() });
    await executor.run('Remember me', { resourceId: 'u1' }).result;
    const firstResult = JSON.stringify(model.requests[1]!.messages.at(-1));
    expect(firstResult).toContain('memory.units');
    expect((await store.get('u1'))?.value).toEqual({ name: 'Ada', units: 'metric' });
    const spec = model.requests[0]!.tools!.find((t) => t.name === 'update_working_memory')!;
    expect(spec.parameters).toMatchObject({
      properties: { memory: { type: 'object', properties: { units: { enum: ['metric', 'imperial'] } } } },
      required: ['memory'],
    });
  });

  it('refuses an update over notes another conversation changed meanwhile, then takes the merged one', async () => {
    const store = new InMemoryMemoryStore();
    await store.set('u1', 'v1');
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'update_working_memory', args: { memory: 'v1 + mine' } }] },
      { toolCalls: [{ name: 'update_working_memory', args: { memory: 'v2 + mine' } }] },
      { text: 'Done.' },
    ]);
    const executor = new Executor({ model, memory: { store }, runtime: runtime() });
    const run = executor.run('note this', { resourceId: 'u1' });
    // Another conversation writes once, after this run read version 1.
    let seen = 0;
    run.on('tool_call', () => {
      if (seen++ === 0) void store.set('u1', 'v2');
    });
    await run.result;
    expect(seen).toBe(2);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('changed by another conversation');
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('v2');
    expect((await store.get('u1'))?.value).toBe('v2 + mine');
  });

  it('refuses a memory option without a usable store or embedder', () => {
    const model = new ScriptedModel([]);
    expect(() => new Executor({ model, memory: { store: {} as never } })).toThrow(/WorkingMemoryStore/);
    const store = new InMemoryMemoryStore();
    const bad = () =>
      new Executor({ model, memory: { store, recall: { embedder: new HashEmbedder(), topK: 0 } } });
    expect(bad).toThrow(ConfigError);
  });
});

describe('semantic recall', () => {
  it("recalls the user's earlier messages of other threads, with thread and time, after the prefix", async () => {
    const store = new InMemoryMemoryStore();
    const embedder = new HashEmbedder();
    const clock = new FakeClock(Date.UTC(2026, 0, 2, 9, 30));
    const model = new ScriptedModel([
      { text: 'Noted: peanut allergy.' },
      { text: 'Unrelated.' },
      { text: 'Try the lentil curry (no peanuts).' },
    ]);
    const memory = { store, working: false as const, recall: { embedder, topK: 2, minScore: 0.2 } };
    const executor = new Executor({ model, instructions: 'Be helpful.', memory, runtime: { clock } });
    await executor.run('I have a severe peanut allergy', { resourceId: 'u1', threadId: 'food' }).result;
    await executor.run('Tell me about the weather in Oslo', { resourceId: 'u2', threadId: 'other-user' })
      .result;
    clock.advance(60_000);
    const run = executor.run('Suggest a dinner recipe without peanut', {
      resourceId: 'u1',
      threadId: 'dinner',
    });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    await run.result;
    const parts = systemParts(model, 2);
    expect(parts[0]).toEqual({ text: 'Be helpful.', cache: true });
    const note = parts.at(-1)!;
    expect(note.cache).toBeFalsy();
    expect(note.text).toContain(
      '[thread food, 2026-01-02T09:30:00.000Z] user: I have a severe peanut allergy',
    );
    expect(note.text).toContain('[thread food, 2026-01-02T09:30:00.000Z] assistant: Noted: peanut allergy.');
    expect(note.text).not.toContain('Oslo');
    expect(memoryEvents(events).map((e) => [e.op, e.count])).toEqual([
      ['recall', 2],
      ['remember', 2],
    ]);
  });

  it('does not recall messages of the thread the run continues', async () => {
    const store = new InMemoryMemoryStore();
    const embedder = new HashEmbedder();
    const model = new ScriptedModel([{ text: 'a' }, { text: 'b' }]);
    const memory = { store, working: false as const, recall: { embedder, minScore: 0 } };
    const executor = new Executor({ model, instructions: 'x', memory, runtime: runtime() });
    await executor.run('peanut allergy', { resourceId: 'u1', threadId: 't' }).result;
    await executor.run('peanut allergy again', { resourceId: 'u1', threadId: 't' }).result;
    expect(model.requests[1]!.system).toBe('x');
  });

  it('retries a rate-limited embedding, and a run whose embedder fails for good still answers', async () => {
    const store = new InMemoryMemoryStore();
    const clock = new FakeClock(0);
    let calls = 0;
    const flaky: EmbeddingModel = {
      id: 'test:flaky',
      dimensions: 4,
      async embed(texts) {
        calls += 1;
        if (calls === 1) throw new ModelError('rate_limit', 'slow down', { retryAfterMs: 10 });
        if (calls >= 3) throw new ModelError('auth', 'bad key');
        return { vectors: texts.map(() => [1, 0, 0, 0]) };
      },
    };
    const model = new ScriptedModel([{ text: 'Still here.' }]);
    const memory = { store, working: false as const, recall: { embedder: flaky } };
    const executor = new Executor({ model, memory, runtime: { clock } });
    const run = executor.run('hello', { resourceId: 'u1', threadId: 't' });
    const events: TandemEvent[] = [];
    run.on('*', (e) => events.push(e));
    // The rate limit asks for 10 ms: nothing moves until the clock does.
    for (let i = 0; i < 3; i++) await clock.advance(10);
    const result = await run.result;
    expect(result.status).toBe('success');
    expect(result.output).toBe('Still here.');
    const ops = memoryEvents(events).map((e) => [e.op, e.count ?? e.error?.kind]);
    expect(ops).toEqual([
      ['recall', 0],
      ['remember', 'auth'],
    ]);
  });

  it('keeps a failed run out of recall', async () => {
    const store = new InMemoryMemoryStore();
    const embedder = new HashEmbedder();
    const model = new ScriptedModel([{ error: new ModelError('auth', 'no key') }]);
    const memory = { store, working: false as const, recall: { embedder } };
    const executor = new Executor({ model, memory, runtime: runtime(), resilience: { retry: false } });
    const result = await executor.run('peanut allergy', { resourceId: 'u1', threadId: 't' }).result;
    expect(result.status).toBe('failed');
    expect(
      await store.query({ vector: embedder.vectorOf('peanut allergy'), topK: 5, resourceId: 'u1' }),
    ).toEqual([]);
  });
});
