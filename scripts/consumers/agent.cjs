/**
 * The CommonJS consumer: `require` of the package and two subpaths. Runs the
 * shared agent, then an OpenAI-compatible model on a loopback server that
 * answers 429 first (the error comes from the `tandem-agents/openai` build and
 * must still be retried by the core build), then one run on the ESM build
 * with errors made by the CJS build (a project that mixes both).
 */
const assert = require('node:assert/strict');
const tandem = require('tandem-agents');
const testing = require('tandem-agents/testing');
const { createOpenAI } = require('tandem-agents/openai');
const { z } = require('zod');
const { startOpenAIServer } = require('./openai-server.cjs');

const parameters = z.object({ a: z.number(), b: z.number() });

async function openAIRateLimitedOnce() {
  const server = await startOpenAIServer([
    { status: 429 },
    { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
    { text: 'The sum is 5.' },
  ]);
  try {
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' })('local-model');
    const add = tandem.defineTool({
      name: 'add',
      description: 'Add',
      parameters,
      execute: ({ a, b }) => a + b,
    });
    const run = new tandem.Executor({
      model,
      resilience: { retry: { baseDelayMs: 1, jitter: 0 } },
      tools: [add],
    }).run('What is 2 + 3?');
    const retried = [];
    run.on('retry', (event) => retried.push(event.error.kind));
    const result = await run.result;
    assert.equal(result.status, 'success', `run status ${result.status}: ${result.output}`);
    assert.equal(result.output, 'The sum is 5.');
    assert.deepEqual(retried, ['rate_limit'], 'the 429 from tandem-agents/openai is retried');
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
}

async function main() {
  const { runToolAgent } = await import('./scenario.mjs');
  const cjs = await runToolAgent({ tandem, testing, parameters });
  await openAIRateLimitedOnce();
  const esm = await import('tandem-agents');
  const mixed = await runToolAgent({
    tandem: { ...esm, ModelError: tandem.ModelError },
    testing,
    parameters,
  });
  console.log('cjs ok', JSON.stringify({ cjs, openai: 'retried', mixed }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
