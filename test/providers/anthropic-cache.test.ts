import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/messages.js';
import {
  type AnthropicMessage,
  type AnthropicTextBlock,
  applyCacheBreakpoints,
  countCacheBreakpoints,
  createAnthropic,
  MAX_CACHE_BREAKPOINTS,
  toAnthropicBody,
} from '../../src/providers/anthropic/index.js';
import { serveFixture, useFixtureServer } from './fixture-server.js';

const EPHEMERAL = { type: 'ephemeral' };

function conversation(turns: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: `question ${i}` });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: `thinking ${i}`, signature: `sig${i}` },
        { type: 'text', text: `answer ${i}` },
      ],
    });
  }
  return messages;
}

function markedPositions(messages: AnthropicMessage[]): string[] {
  const out: string[] = [];
  messages.forEach((m, i) => {
    if (typeof m.content === 'string') return;
    m.content.forEach((b, j) => {
      if ('cache_control' in b && b.cache_control) out.push(`${i}.${j}`);
    });
  });
  return out;
}

describe('Anthropic prompt-cache breakpoints', () => {
  it('marks the system prompt and the last 3 messages by default: 4 markers in all', () => {
    const body = toAnthropicBody('claude-sonnet-4-5', { system: 'Rules.', messages: conversation(5) });
    expect(countCacheBreakpoints(body)).toBe(4);
    expect(body.system).toEqual([{ type: 'text', text: 'Rules.', cache_control: EPHEMERAL }]);
    // Messages 7, 8, 9 (0-based) are the last three; on assistant turns the marker skips the thinking block.
    expect(markedPositions(body.messages)).toEqual(['7.1', '8.0', '9.1']);
  });

  it('never exceeds 4 markers, even when the input already carries markers everywhere', () => {
    const pre: AnthropicMessage[] = Array.from({ length: 8 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: `m${i}`, cache_control: { type: 'ephemeral' } }],
    }));
    const system: AnthropicTextBlock[] = [
      { type: 'text', text: 'a', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } },
    ];
    const out = applyCacheBreakpoints({ system, messages: pre });
    expect(countCacheBreakpoints(out)).toBe(4);
    expect(out.system?.[0]).toEqual({ type: 'text', text: 'a' });
  });

  it('is idempotent: applying it to its own output changes nothing', () => {
    const body = toAnthropicBody('claude-sonnet-4-5', { system: 'Rules.', messages: conversation(4) });
    const system = body.system as AnthropicTextBlock[];
    const again = applyCacheBreakpoints({ system, messages: body.messages });
    expect(again).toEqual({ system, messages: body.messages });
  });

  it('does not modify the arrays, messages or blocks it is given', () => {
    const messages: AnthropicMessage[] = [
      { role: 'user', content: 'plain string' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'reply', cache_control: { type: 'ephemeral', ttl: '1h' } }],
      },
    ];
    const system: AnthropicTextBlock[] = [{ type: 'text', text: 'sys' }];
    const before = structuredClone({ system, messages });
    const out = applyCacheBreakpoints({ system, messages }, { ttl: '1h' });
    expect({ system, messages }).toEqual(before);
    expect(out.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'plain string', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    });
  });

  it('writes the 1h ttl into every marker and leaves it out for the 5m default', () => {
    const oneHour = toAnthropicBody(
      'm',
      { system: 'S', messages: conversation(1) },
      { cache: { ttl: '1h' } },
    );
    expect(oneHour.system?.[0]?.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(JSON.stringify(oneHour.messages)).toContain('"ttl":"1h"');
    const fiveMinutes = toAnthropicBody(
      'm',
      { system: 'S', messages: conversation(1) },
      { cache: { ttl: '5m' } },
    );
    expect(JSON.stringify(fiveMinutes)).not.toContain('ttl');
  });

  it('gives unused message markers to the system parts the caller flagged', () => {
    const system = [
      { text: 'static', cache: true },
      { text: 'tools guide', cache: true },
      { text: 'dynamic' },
    ];
    const short = toAnthropicBody('m', { system, messages: [{ role: 'user', content: 'hi' }] });
    expect(short.system?.map((b) => Boolean(b.cache_control))).toEqual([true, true, false]);
    expect(countCacheBreakpoints(short)).toBe(3);
    const long = toAnthropicBody('m', { system, messages: conversation(3) });
    expect(long.system?.map((b) => Boolean(b.cache_control))).toEqual([false, true, false]);
    expect(countCacheBreakpoints(long)).toBe(4);
  });

  it('sends no markers with cache: false and only the system marker with messages: 0', () => {
    expect(
      countCacheBreakpoints(
        toAnthropicBody('m', { system: 'S', messages: conversation(3) }, { cache: false }),
      ),
    ).toBe(0);
    const systemOnly = toAnthropicBody(
      'm',
      { system: 'S', messages: conversation(3) },
      { cache: { messages: 0 } },
    );
    expect(countCacheBreakpoints(systemOnly)).toBe(1);
    expect(systemOnly.system?.[0]?.cache_control).toEqual(EPHEMERAL);
  });

  it('skips messages that hold nothing a marker can go on', () => {
    const messages: AnthropicMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }] },
    ];
    const out = applyCacheBreakpoints({ messages }, { messages: 1 });
    expect(markedPositions(out.messages)).toEqual(['0.0']);
  });

  it('holds for any conversation: at most 4 markers, idempotent, input untouched', () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 3 }) }),
      fc.record({ type: fc.constant('thinking' as const), thinking: fc.string(), signature: fc.string() }),
      fc.record({
        type: fc.constant('text' as const),
        text: fc.string({ minLength: 1, maxLength: 3 }),
        cache_control: fc.constant({ type: 'ephemeral' as const }),
      }),
    );
    const message = fc.record({
      role: fc.constantFrom('user' as const, 'assistant' as const),
      content: fc.oneof(fc.string({ maxLength: 3 }), fc.array(block, { maxLength: 4 })),
    });
    const systemBlock = fc.record({
      type: fc.constant('text' as const),
      text: fc.string({ minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 12 }),
        fc.option(fc.array(systemBlock, { minLength: 1, maxLength: 5 }), { nil: undefined }),
        fc.array(fc.nat(5), { maxLength: 5 }),
        fc.integer({ min: 0, max: 6 }),
        (messages, system, flags, wanted) => {
          const target = { system, messages: messages as AnthropicMessage[], systemBreakpoints: flags };
          const before = structuredClone(target);
          const once = applyCacheBreakpoints(target, { messages: wanted });
          expect(target).toEqual(before);
          expect(countCacheBreakpoints(once)).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
          const twice = applyCacheBreakpoints({ ...once, systemBreakpoints: flags }, { messages: wanted });
          expect(twice).toEqual(once);
        },
      ),
    );
  });
});

describe('Anthropic cache markers on the wire (served anthropic/nonstream-max-tokens.json)', () => {
  const server = useFixtureServer();

  it('sends at most 4 markers on every call of a growing conversation and never marks the stored history', async () => {
    server.handle(serveFixture('anthropic/nonstream-max-tokens.json'));
    const model = createAnthropic({ apiKey: 'k', baseURL: server.url })('claude-sonnet-4-5', {
      cache: { ttl: '1h' },
    });
    const history: Message[] = [];
    for (let turn = 0; turn < 4; turn++) {
      history.push({ role: 'user', content: `turn ${turn}` });
      const response = await model.generate({ system: 'Long stable rules.', messages: history });
      history.push(response.message);
      const body = server.lastRequest().body;
      expect(countCacheBreakpoints(body)).toBe(Math.min(4, 1 + history.length - 1));
      expect(body.system[0].cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    }
    expect(JSON.stringify(history)).not.toContain('cache_control');
  });
});
