import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import { createResilientInvoker } from '../../src/model/resilience/resilient-invoker.js';
import type { ModelRequest } from '../../src/model/types.js';
import { FakeClock, fail, recordEvents, ScriptedModel, sequenceRandom } from './support.js';

const conversation: Message[] = [
  { role: 'user', content: 'Delete the temp file, then tell me what is left.' },
  {
    role: 'assistant',
    content: [{ type: 'tool_call', id: 'call_1', name: 'delete_file', arguments: '{"path":"/tmp/x"}' }],
  },
  {
    role: 'tool',
    content: [{ type: 'tool_result', toolCallId: 'call_1', toolName: 'delete_file', content: 'deleted' }],
  },
];

describe('replay safety', () => {
  it('re-sends exactly the same messages, tool results included, on retry and fallback', async () => {
    const clock = new FakeClock();
    const request: ModelRequest = { system: 'be brief', messages: conversation, tools: [] };
    const snapshot = structuredClone(request);
    const primary = new ScriptedModel(
      'p:a',
      [
        { error: fail('server') },
        { error: fail('connection') },
        { error: fail('server') },
        { error: fail('server') },
      ],
      clock,
    );
    const backup = new ScriptedModel('p:b', [{ reply: 'Nothing is left.' }], clock);
    const invoker = createResilientInvoker({
      models: [primary, backup],
      runtime: { clock, random: sequenceRandom(0) },
    });

    await clock.run(invoker.invoke(request, { emit: recordEvents(clock).bus }));

    const sent = [...primary.calls, ...backup.calls].map((call) => call.request);
    expect(sent).toHaveLength(5);
    for (const each of sent) {
      expect(each).toBe(request);
      expect(each).toEqual(snapshot);
    }
    expect(request).toEqual(snapshot);
  });
});

describe('event order', () => {
  it('emits retry, fallback and token events in the order things happened', async () => {
    const clock = new FakeClock();
    const { bus, events } = recordEvents(clock);
    const primary = new ScriptedModel(
      'p:a',
      [
        { parts: [{ type: 'text-delta', delta: '' }], error: fail('connection') },
        { parts: [], stall: true },
        { error: fail('server') },
        { error: fail('auth') },
      ],
      clock,
    );
    const backup = new ScriptedModel('p:b', [{ reply: 'done' }], clock);
    const invoker = createResilientInvoker({
      models: [primary, backup],
      runtime: { clock, random: sequenceRandom(0) },
    });

    await clock.run(invoker.invoke({ messages: conversation }, { emit: bus }));

    expect(
      events.map((e) => [e.type, 'error' in e ? e.error?.kind : 'delta' in e ? e.delta : undefined, e.at]),
    ).toEqual([
      ['retry', 'connection', 0],
      ['retry', 'timeout', 182_000],
      ['retry', 'server', 186_000],
      ['fallback', 'auth', 194_000],
      ['token', 'done', 194_000],
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});
