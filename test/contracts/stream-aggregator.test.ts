import { describe, expect, it } from 'vitest';
import { collectStream, type ModelStreamPart } from '../../src/index.js';
import { responseToStream, StreamAggregator } from '../../src/model/index.js';

async function* parts(list: ModelStreamPart[]) {
  yield* list;
}

const usage = { inputTokens: 5, outputTokens: 7, cachedInputTokens: 1, reasoningTokens: 2 };

describe('StreamAggregator', () => {
  it('joins text deltas and reasoning deltas into parts in stream order', async () => {
    const res = await collectStream(
      parts([
        { type: 'reasoning-delta', delta: 'think ' },
        { type: 'reasoning-delta', delta: 'more', signature: 'sig' },
        { type: 'text-delta', delta: 'Hel' },
        { type: 'text-delta', delta: 'lo' },
        { type: 'finish', finishReason: 'stop', usage },
      ]),
    );
    expect(res.message.content).toEqual([
      { type: 'reasoning', text: 'think more', signature: 'sig' },
      { type: 'text', text: 'Hello' },
    ]);
    expect(res.usage).toEqual(usage);
    expect(res.finishReason).toBe('stop');
  });

  it('starts a new part when the block id changes', async () => {
    const res = await collectStream(
      parts([
        { type: 'reasoning-delta', delta: 'a', id: 'r1' },
        { type: 'reasoning-delta', delta: 'b', id: 'r2' },
        { type: 'finish', finishReason: 'stop', usage },
      ]),
    );
    expect(res.message.content).toEqual([
      { type: 'reasoning', text: 'a' },
      { type: 'reasoning', text: 'b' },
    ]);
  });

  it('joins tool-call argument deltas by index and keeps the first id when later fragments repeat id ""', async () => {
    const res = await collectStream(
      parts([
        { type: 'tool-call-delta', index: 0, id: 'call_a', name: 'add', argsDelta: '{"a":' },
        { type: 'tool-call-delta', index: 1, id: 'call_b', name: 'mul', argsDelta: '{"x"' },
        { type: 'tool-call-delta', index: 0, id: '', argsDelta: '1}' },
        { type: 'tool-call-delta', index: 1, argsDelta: ':2}' },
        { type: 'finish', finishReason: 'stop', usage },
      ]),
    );
    expect(res.message.content).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'add', arguments: '{"a":1}' },
      { type: 'tool_call', id: 'call_b', name: 'mul', arguments: '{"x":2}' },
    ]);
    expect(res.finishReason).toBe('tool_calls');
  });

  it('lets a complete tool-call part replace the deltas of the same index', () => {
    const agg = new StreamAggregator();
    agg.push({ type: 'tool-call-delta', index: 0, id: 'c1', name: 'f', argsDelta: '{"partial' });
    agg.push({ type: 'tool-call', index: 0, id: 'c1', name: 'f', arguments: '{"whole":true}' });
    expect(agg.response().message.content).toEqual([
      { type: 'tool_call', id: 'c1', name: 'f', arguments: '{"whole":true}' },
    ]);
  });

  it('fails an empty stream with a typed invalid_response error', async () => {
    await expect(collectStream(parts([]), 'm:x')).rejects.toMatchObject({ kind: 'invalid_response' });
  });

  it('round-trips a response through responseToStream', async () => {
    const response = {
      message: {
        role: 'assistant' as const,
        content: [
          { type: 'reasoning' as const, text: 'r', signature: 's' },
          { type: 'text' as const, text: 'hi' },
          { type: 'tool_call' as const, id: 't1', name: 'x', arguments: '{}' },
        ],
      },
      finishReason: 'tool_calls' as const,
      usage,
    };
    expect(await collectStream(parts([...responseToStream(response)]))).toEqual(response);
  });
});
