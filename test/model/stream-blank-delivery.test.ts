/**
 * Whitespace is not visible output: a stream that delivered only blanks
 * before failing is retried (seed §3 scenario 25), and an empty reply of
 * blanks moves to the next model like any empty reply.
 */
import { describe, expect, it } from 'vitest';
import {
  createResilientInvoker,
  EventBus,
  ModelError,
  type ModelStreamPart,
  StreamInterruptedError,
  type TandemEvent,
  userMessage,
} from '../../src/index.js';
import { FakeClock, ScriptedModel } from '../../src/testing/index.js';

const request = { messages: [userMessage('hi')] };
const reset = () => new ModelError('connection', 'connection reset');

function setup(...models: ScriptedModel[]) {
  const clock = new FakeClock();
  const bus = new EventBus({ runId: 'r', clock });
  const events: TandemEvent[] = [];
  bus.on('*', (event) => events.push(event));
  const invoker = createResilientInvoker({ models, runtime: { clock, random: { next: () => 0 } } });
  return { clock, bus, events, invoker };
}

describe('a stream that delivered only whitespace', () => {
  for (const [label, part] of [
    ['text', { type: 'text-delta', delta: '\n\n  ' }],
    ['reasoning', { type: 'reasoning-delta', delta: ' \t' }],
  ] as Array<[string, ModelStreamPart]>) {
    it(`is retried when it fails after blank ${label}`, async () => {
      const model = new ScriptedModel([{ error: reset(), afterParts: [part] }, { text: 'Hello' }], {
        chunking: 'whole',
      });
      const { clock, bus, events, invoker } = setup(model);
      const response = await clock.run(invoker.invoke(request, { emit: bus }));
      expect(response.message.content).toEqual([{ type: 'text', text: 'Hello' }]);
      expect(model.calls).toBe(2);
      expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    });
  }

  it('still is not retried once non-blank text followed the blanks', async () => {
    const parts: ModelStreamPart[] = [
      { type: 'text-delta', delta: '\n' },
      { type: 'text-delta', delta: 'Hel' },
    ];
    const model = new ScriptedModel([{ error: reset(), afterParts: parts }, { text: 'never' }]);
    const { clock, bus, invoker } = setup(model);
    const error = await clock.run(invoker.invoke(request, { emit: bus })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(model.calls).toBe(1);
  });

  it('falls back as an empty reply when a whole reply was only whitespace', async () => {
    const blank = new ScriptedModel([{ stream: [{ type: 'text-delta', delta: '  \n' }] }], { id: 'p:blank' });
    const backup = new ScriptedModel([{ text: 'answer' }], { id: 'p:backup' });
    const { clock, bus, events, invoker } = setup(blank, backup);
    const response = await clock.run(invoker.invoke(request, { emit: bus }));
    expect(response.message.content).toEqual([{ type: 'text', text: 'answer' }]);
    expect(events.filter((e) => e.type === 'fallback')).toMatchObject([
      { from: 'p:blank', to: 'p:backup', error: { kind: 'empty_response' } },
    ]);
  });
});
