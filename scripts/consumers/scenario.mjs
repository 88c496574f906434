/**
 * The agent every consumer cell runs, whatever its runtime, module system or
 * schema library: one Executor run whose scripted model is rate-limited once
 * (the retry must happen), calls a tool with bad arguments (rejected, never
 * executed), calls it correctly, and answers. Each consumer passes the
 * package as it loaded it and the `{ a: number, b: number }` schema of its
 * schema library.
 */
import assert from 'node:assert/strict';

/** Runs the agent and throws an AssertionError on any difference from the expected run. */
export async function runToolAgent({ tandem, testing, parameters }) {
  const { Executor, ModelError, defineTool } = tandem;
  const executed = [];
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers',
    parameters,
    execute: ({ a, b }) => {
      executed.push([a, b]);
      return a + b;
    },
  });
  const model = new testing.ScriptedModel([
    { error: new ModelError('rate_limit', '429 too many requests', { retryAfterMs: 1 }) },
    { toolCalls: [{ name: 'add', args: { a: 'two', b: 3 } }] },
    { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
    { text: 'The sum is 5.' },
  ]);
  const run = new Executor({ model, resilience: { retry: { baseDelayMs: 1, jitter: 0 } }, tools: [add] }).run(
    'What is 2 + 3?',
  );
  const retried = [];
  run.on('retry', (event) => retried.push(event.error.kind));
  const result = await run.result;

  assert.equal(result.status, 'success', `run status ${result.status}: ${result.output}`);
  assert.equal(result.output, 'The sum is 5.');
  assert.deepEqual(retried, ['rate_limit'], 'the rate-limited call is retried once');
  assert.deepEqual(executed, [[2, 3]], 'only the valid tool call is executed');
  const schema = model.requests[0].tools?.[0]?.parameters;
  assert.deepEqual(schema?.properties?.a, { type: 'number' }, `JSON Schema sent: ${JSON.stringify(schema)}`);
  const rejected = model.requests[2].messages.at(-1).content[0];
  assert.equal(rejected.isError, true, `bad arguments are an error result: ${JSON.stringify(rejected)}`);
  model.assertConsumed();
  return { retries: retried.length, output: result.output };
}
