import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextCompressor } from '../../src/context/compressor.js';
import { findHeadEnd } from '../../src/context/compressor-boundaries.js';
import { ConversationHistory } from '../../src/context/conversation-history.js';
import { TokenCounter } from '../../src/context/token-counter.js';
import { sanitizeToolPairs } from '../../src/context/tool-pairs.js';
import { ModelError } from '../../src/core/errors.js';
import type { AssistantMessage, Message, ToolResultPart } from '../../src/core/messages.js';
import { deepFreeze, fakeSummarizer, pairingProblems } from './helpers.js';

const batchArb = fc.record({
  sizes: fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 3 }),
  split: fc.boolean(),
  text: fc.boolean(),
  reasoning: fc.boolean(),
});
const turnArb = fc.record({
  userSize: fc.integer({ min: 1, max: 600 }),
  batches: fc.array(batchArb, { maxLength: 3 }),
  answer: fc.option(fc.integer({ min: 1, max: 600 })),
});

/** A conversation whose sides alternate (runs of tool messages count as one user turn). */
type Turn = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

function build(turns: Turn[]): Message[] {
  const out: Message[] = [];
  let id = 0;
  turns.forEach((turn, t) => {
    out.push({ role: 'user', content: `u${t} ${'u'.repeat(turn.userSize)}` });
    for (const batch of turn.batches) {
      const calls = batch.sizes.map(() => `call_${id++}`);
      const content: AssistantMessage['content'] = [];
      if (batch.reasoning) content.push({ type: 'reasoning', text: 'thinking', signature: 'sig' });
      if (batch.text) content.push({ type: 'text', text: 'let me look' });
      for (const c of calls)
        content.push({ type: 'tool_call', id: c, name: 'read', arguments: `{"id":"${c}"}` });
      out.push({ role: 'assistant', content });
      const results: ToolResultPart[] = calls.map((c, i) => ({
        type: 'tool_result',
        toolCallId: c,
        toolName: 'read',
        content: `${c} ${'r'.repeat(batch.sizes[i]!)}`,
      }));
      if (batch.split && results.length > 1) {
        out.push({ role: 'tool', content: results.slice(0, 1) }, { role: 'tool', content: results.slice(1) });
      } else out.push({ role: 'tool', content: results });
    }
    const last = t === turns.length - 1;
    if (turn.answer !== null || !last || turn.batches.length === 0) {
      out.push({
        role: 'assistant',
        content: [{ type: 'text', text: `a${t} ${'a'.repeat(turn.answer ?? 5)}` }],
      });
    }
  });
  return out;
}

function alternationProblems(messages: readonly Message[]): string[] {
  const sides: string[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'tool' && messages[i - 1]?.role === 'tool') return;
    sides.push(m.role === 'assistant' ? 'assistant' : 'user');
  });
  const problems: string[] = [];
  if (sides[0] !== 'user') problems.push('starts with an assistant message');
  for (let i = 1; i < sides.length; i++)
    if (sides[i] === sides[i - 1]) problems.push(`two ${sides[i]} turns at ${i}`);
  return problems;
}

const conversationArb = fc.array(turnArb, { minLength: 1, maxLength: 40 }).map(build);
const longConversationArb = fc.array(turnArb, { minLength: 8, maxLength: 60 }).map(build);

describe('ContextCompressor properties', () => {
  it('keeps pairs, head, tail, alternation and the budget, and never touches its input', async () => {
    await fc.assert(
      fc.asyncProperty(
        longConversationArb,
        fc.integer({ min: 5_000, max: 30_000 }),
        fc.constantFrom('ok', 'fails', 'none'),
        async (messages, contextWindow, summarizerKind) => {
          deepFreeze(messages);
          const snapshot = structuredClone(messages);
          const counter = new TokenCounter();
          const summarizer =
            summarizerKind === 'none'
              ? undefined
              : fakeSummarizer(() =>
                  summarizerKind === 'ok' ? '## Active Task\nwork' : new ModelError('server', 'down'),
                );
          const compressor = new ContextCompressor({ counter, summarizer, contextWindow });
          const out = await compressor.compress({ system: 'system prompt', messages });

          expect(messages).toEqual(snapshot);
          expect(pairingProblems(out.messages)).toEqual([]);
          expect(alternationProblems(out.messages)).toEqual([]);
          const system = out.systemNote ? `system prompt\n\n${out.systemNote}` : 'system prompt';
          expect(out.tokensAfter).toBe(counter.count({ system, messages: out.messages }));
          if (!out.compressed) {
            expect(out.messages).toEqual(messages);
            return;
          }
          expect(out.tokensAfter).toBeLessThan(out.tokensBefore);
          expect(out.fits).toBe(true);
          expect(out.tokensAfter).toBeLessThanOrEqual(compressor.target);
          const headEnd = findHeadEnd(messages, 3);
          for (let i = 0; i < headEnd; i++) expect(out.messages[i]).toBe(messages[i]);
          // The newest message survives as the same object (the first tail message may carry a merged summary).
          expect(out.messages.at(-1)).toBe(messages.at(-1));
          if (out.method !== 'truncate') {
            const kept = Math.min(2, messages.length - headEnd);
            for (let k = 1; k <= kept; k++) expect(out.messages.at(-k)).toBe(messages.at(-k));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps the properties across repeated compressions of a growing conversation', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(turnArb, { minLength: 1, maxLength: 10 }), { minLength: 2, maxLength: 5 }),
        async (rounds) => {
          const summarizer = fakeSummarizer((_, n) => `summary ${n}`);
          const compressor = new ContextCompressor({ summarizer, contextWindow: 8000 });
          let conversation: Message[] = [];
          for (const round of rounds) {
            const grown = deepFreeze([...conversation, ...build(round)]);
            const out = await compressor.compress({ messages: grown });
            expect(pairingProblems(out.messages)).toEqual([]);
            expect(
              out.messages.filter((m) => m.role !== 'tool' && JSON.stringify(m).includes('CONTEXT SUMMARY'))
                .length,
            ).toBeLessThanOrEqual(1);
            conversation = out.messages;
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('tool pairing properties', () => {
  it('sanitizeToolPairs leaves no orphan result and no unanswered call, whatever is cut out', () => {
    fc.assert(
      fc.property(conversationArb, fc.array(fc.nat(), { maxLength: 8 }), (messages, cuts) => {
        const broken = messages.filter((_, i) => !cuts.some((c) => c % Math.max(1, messages.length) === i));
        expect(pairingProblems(sanitizeToolPairs(deepFreeze(broken)))).toEqual([]);
      }),
    );
  });

  it('ConversationHistory never hands out a tool result without its call', () => {
    fc.assert(
      fc.property(
        conversationArb,
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 60 }),
        (messages, n, max) => {
          const history = new ConversationHistory({ maxMessages: max });
          for (const m of messages) history.add(m);
          expect(pairingProblems(history.recent(n)).filter((p) => p.startsWith('orphan'))).toEqual([]);
          expect(pairingProblems(history.messages()).filter((p) => p.startsWith('orphan'))).toEqual([]);
        },
      ),
    );
  });
});
