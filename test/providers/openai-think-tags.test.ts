/**
 * Servers that inline reasoning as a leading `<think>…</think>` in the reply
 * text (vLLM, Ollama, llama.cpp without a reasoning parser): the block
 * becomes a reasoning part, whole or streamed in any split, and an unclosed
 * block leaves no answer, so the executor asks again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Executor } from '../../src/index.js';
import { createOpenAI } from '../../src/providers/openai/index.js';
import { respond, respondSSE, useFixtureServer } from './fixture-server.js';
import { drain } from './helpers.js';

const server = useFixtureServer();
const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

const completion = (content: string) => ({
  id: 'c1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
});

/** An SSE body streaming `deltas` as content chunks. */
const sse = (deltas: string[]) =>
  [
    ...deltas.map(
      (d) => `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { content: d } }] })}\n\n`,
    ),
    `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');

const local = (settings = {}) => createOpenAI({ baseURL: `${server.url}/v1` })('qwen3:8b', settings);

describe('inline <think> reasoning', () => {
  it('splits a whole reply into a reasoning part and the answer', async () => {
    server.handle(respond(200, completion('\n<think>\nThe user greets.\n</think>\n\nHello!')));
    const reply = await local().generate(ask);
    expect(reply.message.content).toEqual([
      { type: 'reasoning', text: '\nThe user greets.\n' },
      { type: 'text', text: 'Hello!' },
    ]);
  });

  it('keeps the block as text when told to', async () => {
    server.handle(respond(200, completion('<think>x</think>Hello!')));
    const reply = await local({ inlineThinking: 'text' }).generate(ask);
    expect(reply.message.content).toEqual([{ type: 'text', text: '<think>x</think>Hello!' }]);
  });

  it('leaves text that merely mentions <think> later on alone', async () => {
    server.handle(respond(200, completion('Use a <think> tag.')));
    expect((await local().generate(ask)).message.content).toEqual([
      { type: 'text', text: 'Use a <think> tag.' },
    ]);
  });

  it('streams the block as reasoning deltas whatever the chunk boundaries', async () => {
    const reply = '<think>weigh options</think>Answer: 42';
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: reply.length - 1 }), { maxLength: 6 }),
        async (cuts) => {
          const points = [0, ...cuts.sort((a, b) => a - b), reply.length];
          const deltas = points.slice(1).map((end, i) => reply.slice(points[i], end));
          server.handle(respondSSE(sse(deltas)));
          const parts = await drain(local().stream!(ask));
          const join = (type: string) =>
            parts
              .filter((p) => p.type === type)
              .map((p) => (p as { delta: string }).delta)
              .join('');
          expect(join('reasoning-delta')).toBe('weigh options');
          expect(join('text-delta')).toBe('Answer: 42');
        },
      ),
      { numRuns: 40 },
    );
  });

  it('asks again when the reply is an unclosed <think> with no answer', async () => {
    server.handle(
      respond(200, completion('<think>I am still thinking about')),
      respond(200, completion('<think>done</think>Paris.')),
    );
    const executor = new Executor({ model: local(), stream: false });
    const result = await executor.run('Capital of France?').result;
    expect(result.output).toBe('Paris.');
    expect(server.requests).toHaveLength(2);
  });
});
