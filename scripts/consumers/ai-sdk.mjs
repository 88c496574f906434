/**
 * The AI SDK consumer: an `@ai-sdk/openai-compatible` model (the major that
 * matches the installed `ai`) through `fromAISDK`, on a loopback server that
 * answers 429 once, then a tool call, then the answer.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { defineTool, Executor } from 'tandem-agents';
import { fromAISDK } from 'tandem-agents/ai-sdk';
import { z } from 'zod';
import server from './openai-server.cjs';

const require = createRequire(import.meta.url);
const versions = `ai ${require('ai/package.json').version}, @ai-sdk/openai-compatible ${require('@ai-sdk/openai-compatible/package.json').version}`;
const openai = await server.startOpenAIServer([
  { status: 429 },
  { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
  { text: 'The sum is 5.' },
]);
try {
  const provider = createOpenAICompatible({ name: 'local', baseURL: openai.baseURL, apiKey: 'test-key' });
  const model = fromAISDK(provider('local-model'));
  const executed = [];
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => executed.push([a, b]) && a + b,
  });
  const run = new Executor({ model, resilience: { retry: { baseDelayMs: 1, jitter: 0 } }, tools: [add] }).run(
    'What is 2 + 3?',
  );
  const retried = [];
  run.on('retry', (event) => retried.push(event.error.kind));
  const result = await run.result;
  assert.equal(result.status, 'success', `${versions}: run status ${result.status}: ${result.output}`);
  assert.equal(result.output, 'The sum is 5.');
  assert.deepEqual(retried, ['rate_limit'], 'the 429 is retried by tandem');
  assert.deepEqual(executed, [[2, 3]]);
  assert.equal(openai.requests.length, 3);
  console.log(`ai-sdk ok (${versions})`);
} finally {
  await openai.close();
}
