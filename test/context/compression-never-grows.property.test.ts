import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/context/index.js';
import {
  ContextCompressor,
  createContextManager,
  type Message,
  ModelError,
  TokenCounter,
} from '../../src/index.js';
import {
  assistant,
  call,
  fakeSummarizer,
  pairingProblems,
  recordingEmitter,
  result,
  user,
} from './helpers.js';

/** Fixed seed: a failure reproduces, and the suite stays deterministic. */
const SEED = 0x13_15;

// Small middles, huge recent tool outputs and long summaries are where a compression could grow a request.
const sizeArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 200 }) },
  { weight: 2, arbitrary: fc.integer({ min: 200, max: 3000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5000, max: 40_000 }) },
);
const turnArb = fc.record({
  user: sizeArb,
  tool: fc.option(sizeArb),
  answer: fc.option(sizeArb),
});
const scenarioArb = fc.record({
  turns: fc.array(turnArb, { minLength: 1, maxLength: 12 }),
  previousSummary: fc.option(fc.integer({ min: 1, max: 4000 })),
  summarizer: fc.oneof(
    fc.record({ kind: fc.constant('ok' as const), chars: fc.integer({ min: 1, max: 12_000 }) }),
    fc.record({ kind: fc.constantFrom('fails' as const, 'none' as const) }),
  ),
  contextWindow: fc.integer({ min: 1500, max: 40_000 }),
  protectFirst: fc.integer({ min: 0, max: 4 }),
  alternateRoles: fc.boolean(),
  system: fc.constantFrom(undefined, 'system prompt', [{ text: 'prefix', cache: true }, { text: 'suffix' }]),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function conversation(s: Scenario): Message[] {
  const out: Message[] = [];
  s.turns.forEach((turn, t) => {
    out.push({ role: 'user', content: `u${t} ${'u'.repeat(turn.user)}` });
    // The earlier summary sits right after the task, where a compression leaves it.
    if (t === 0 && s.previousSummary !== null) {
      out.push({
        role: 'assistant',
        content: [{ type: 'text', text: formatSummary('s'.repeat(s.previousSummary)) }],
      });
      out.push({ role: 'user', content: 'go on' });
    }
    if (turn.tool !== null) {
      const id = `call_${t}`;
      out.push({ role: 'assistant', content: [{ type: 'tool_call', id, name: 'read', arguments: '{}' }] });
      out.push({
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: id, toolName: 'read', content: 'r'.repeat(turn.tool) }],
      });
    }
    if (turn.answer !== null || t < s.turns.length - 1) {
      out.push({
        role: 'assistant',
        content: [{ type: 'text', text: `a${t} ${'a'.repeat(turn.answer ?? 3)}` }],
      });
    }
  });
  return out;
}

function summarizerFor(s: Scenario) {
  const kind = s.summarizer.kind;
  if (kind === 'none') return undefined;
  const chars = 'chars' in s.summarizer ? s.summarizer.chars : 0;
  return fakeSummarizer(() =>
    kind === 'ok' ? `## Active Task\n${'word '.repeat(chars / 5)}` : new ModelError('server', 'down'),
  );
}

/** The system prompt as sent once `note` is appended to its dynamic end. */
function withNote(system: Scenario['system'], note: string | undefined): Scenario['system'] {
  if (!note) return system;
  if (!system) return note;
  return typeof system === 'string' ? `${system}\n\n${note}` : [...system, { text: note }];
}

describe('a compression never makes the request bigger', () => {
  it('ContextCompressor: the result, with its system note, is smaller than the request or the request itself', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const counter = new TokenCounter();
        const emit = recordingEmitter();
        const { contextWindow, protectFirst, alternateRoles, system } = s;
        const compressor = new ContextCompressor({
          counter,
          summarizer: summarizerFor(s),
          contextWindow,
          protectFirst,
          alternateRoles,
          emit,
        });
        const messages = conversation(s);
        const out = await compressor.compress({ system, messages });
        const sent = counter.count({ system: withNote(system, out.systemNote), messages: out.messages });

        expect(out.tokensBefore).toBe(counter.count({ system, messages }));
        expect(sent).toBe(out.tokensAfter);
        expect(out.tokensAfter).toBeLessThanOrEqual(out.tokensBefore);
        if (out.compressed) expect(out.tokensAfter).toBeLessThan(out.tokensBefore);
        else expect(out.messages).toEqual(messages);
        expect(pairingProblems(out.messages)).toEqual([]);
        for (const event of emit.events) {
          expect(event.tokensAfter as number).toBeLessThanOrEqual(event.tokensBefore as number);
          expect(event.tokensAfter).toBe(out.tokensAfter);
        }
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('createContextManager: every request sent is no bigger than the one it replaces, and lastCount is its size', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (s) => {
        const counter = new TokenCounter();
        const emit = recordingEmitter();
        const compressor = new ContextCompressor({
          counter,
          summarizer: summarizerFor(s),
          contextWindow: s.contextWindow,
          protectFirst: s.protectFirst,
          alternateRoles: s.alternateRoles,
        });
        const manager = createContextManager({ compressor, emit });
        const all = conversation(s);
        for (let n = 1; n <= all.length; n++) {
          const seen = emit.events.length;
          const prepared = await manager.prepareRequest(
            { system: s.system, messages: all.slice(0, n) },
            { emit },
          );
          expect(manager.lastCount).toBe(counter.count(prepared));
          for (const event of emit.events.slice(seen).filter((e) => e.type === 'compression')) {
            expect(event.tokensAfter as number).toBeLessThanOrEqual(event.tokensBefore as number);
            expect(event.tokensAfter).toBe(manager.lastCount);
          }
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

describe('when a summary would not shrink the request', () => {
  // A small middle between a short head and a huge recent tool output.
  const messages = [
    user('task'),
    assistant('a'),
    user('b'),
    ...['c', 'd', 'e', 'f'].map((x, i) => (i % 2 ? user(x.repeat(200)) : assistant(x.repeat(200)))),
    call('big'),
    result('big', 'r'.repeat(8000)),
    assistant('done'),
  ];

  it('falls back to a truncation and says so in the compression event', async () => {
    const emit = recordingEmitter();
    const summarizer = fakeSummarizer(() => `## Active Task\n${'long '.repeat(300)}`);
    const compressor = new ContextCompressor({ summarizer, contextWindow: 4000, emit });
    const out = await compressor.compress({ messages });
    expect(summarizer.requests).toHaveLength(1);
    expect(out).toMatchObject({ compressed: true, method: 'truncate', fallback: 'truncate' });
    expect(out.tokensAfter).toBeLessThan(out.tokensBefore);
    expect(compressor.summary).toBeUndefined();
    expect(emit.events).toEqual([
      expect.objectContaining({
        type: 'compression',
        method: 'truncate',
        fallback: 'truncate',
        reason: 'a summary would not shrink the request',
        tokensAfter: out.tokensAfter,
      }),
    ]);
  });

  it('leaves the request as it is when a truncation would not shrink it either, and says so', async () => {
    const emit = recordingEmitter();
    const summarizer = fakeSummarizer(() => `## Active Task\n${'long '.repeat(300)}`);
    const small = [user('task'), assistant('a'), user('b'), assistant('c'), user('u'.repeat(8000))];
    const compressor = new ContextCompressor({ summarizer, contextWindow: 4000, minTailMessages: 1, emit });
    const out = await compressor.compress({ messages: small });
    expect(out).toMatchObject({ compressed: false, method: 'truncate', fallback: 'unchanged' });
    expect(out.messages).toEqual(small);
    expect(out.systemNote).toBeUndefined();
    expect(compressor.systemNote).toBeUndefined();
    expect(emit.events).toEqual([
      expect.objectContaining({
        type: 'compression',
        method: 'truncate',
        fallback: 'unchanged',
        reason: 'neither a summary nor a truncation would shrink the request',
        tokensBefore: out.tokensBefore,
        tokensAfter: out.tokensBefore,
        messagesAfter: small.length,
      }),
    ]);
  });
});
