/**
 * `context` alone recovers from context-length errors: the default invoker
 * (`directInvoker`) honours the context manager's compression seam, in the
 * Executor and in the executors an Orchestrator builds.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  contextPerConversation,
  defineTool,
  directInvoker,
  Executor,
  type Message,
  ModelError,
  Orchestrator,
  TokenCounter,
  userMessage,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

const tooLong = () =>
  new ModelError('context_length', 'maximum context length is 3000 tokens', {
    status: 400,
    contextLimit: 3000,
  });

/** A tool-heavy history of about 6 000 tokens: too big for a 3 000-token window. */
function history(): Message[] {
  const messages: Message[] = [userMessage('start')];
  for (let i = 0; i < 30; i++) {
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_call', id: `c${i}`, name: 'read', arguments: '{}' }] },
      {
        role: 'tool',
        content: [{ type: 'tool_result', toolCallId: `c${i}`, toolName: 'read', content: 'y'.repeat(400) }],
      },
    );
  }
  return messages;
}

const context = () => contextPerConversation({ contextWindow: 128_000, counter: new TokenCounter() });

describe('context recovery through the default invoker', () => {
  it('an Executor given only `context` compresses a rejected request and sends it again', async () => {
    const model = new ScriptedModel([{ error: tooLong() }, { text: 'fits now' }]);
    const executor = new Executor({
      model,
      runtime: testRuntime(),
      limits: { maxIterations: 1 },
      context: { manager: context() },
    });
    const result = await executor.run('go', { history: history() }).result;
    expect(result.output).toBe('fits now');
    expect(model.calls).toBe(2);
    expect(new TokenCounter().count(model.requests[1]!)).toBeLessThanOrEqual(3000);
  });

  it("an Orchestrator's executors recover with `executorOptions.context`", async () => {
    const read = defineTool({
      name: 'read',
      description: 'Read a page',
      parameters: z.object({ page: z.number() }),
      execute: () => 'y'.repeat(3_000),
    });
    const pages = Array.from({ length: 5 }, (_, page) => ({ toolCalls: [{ name: 'read', args: { page } }] }));
    const model = new ScriptedModel([...pages, { error: tooLong() }, { text: 'fits now' }]);
    const orchestrator = new Orchestrator({
      models: { planner: model, executor: model, verifier: false },
      tools: [read],
      planning: { classify: 'heuristic' },
      runtime: testRuntime(),
      context: { manager: context() },
    });
    const result = await orchestrator.run('hi').result;
    expect(result.output).toBe('fits now');
    expect(new TokenCounter().count(model.requests[5]!)).toBeGreaterThan(3000);
    expect(new TokenCounter().count(model.requests[6]!)).toBeLessThanOrEqual(3000);
  });

  it('directInvoker does not call again once output was shown', async () => {
    const model = new ScriptedModel([
      { error: tooLong(), afterParts: [{ type: 'text-delta', delta: 'Hel' }] },
      { text: 'never' },
    ]);
    let compressions = 0;
    const compress = async () => {
      compressions++;
      return { messages: [userMessage('short')] };
    };
    const error = await directInvoker(model)
      .invoke({ messages: [userMessage('long')] }, { compress })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'context_length' });
    expect(compressions).toBe(0);
    expect(model.calls).toBe(1);
  });

  it('directInvoker without a compression seam makes one call', async () => {
    const model = new ScriptedModel([{ error: tooLong() }, { text: 'never' }]);
    await expect(directInvoker(model).invoke({ messages: [userMessage('long')] })).rejects.toMatchObject({
      kind: 'context_length',
    });
    expect(model.calls).toBe(1);
  });
});
