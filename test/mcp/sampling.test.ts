/**
 * Sampling (`sampling/createMessage`) answered through a user-supplied model,
 * against real child-process servers over stdio: `server-everything` offers
 * its sampling tool only to clients that declare the capability; the
 * fixture's `ask` tool reports whatever error the client answered with.
 */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import type { McpConnection } from '../../src/mcp/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { directContext, spawnEverything, spawnFixture } from './support.js';

async function using<T>(
  connecting: Promise<McpConnection>,
  use: (c: McpConnection) => Promise<T>,
): Promise<T> {
  const connection = await connecting;
  try {
    return await use(connection);
  } finally {
    await connection.close();
  }
}

function ask(connection: McpConnection, question: string) {
  return connection.tools.find((t) => t.name === 'ask')!.call({ question }, directContext().ctx);
}

describe('mcp sampling', () => {
  it("answers server-everything's sampling request with the configured model", async () => {
    const model = new ScriptedModel([{ text: 'Paris.' }], { id: 'scripted:sampler' });
    const output = await using(spawnEverything({ sampling: { model } }), (everything) => {
      const tool = everything.tools.find((t) => t.mcpName === 'trigger-sampling-request')!;
      return tool.execute({ prompt: 'Capital of France?', maxTokens: 30 }, directContext().ctx);
    });
    const text = output as string;
    const reply = JSON.parse(text.slice(text.indexOf('{')));
    expect(reply).toMatchObject({
      model: 'scripted:sampler',
      role: 'assistant',
      content: { type: 'text', text: 'Paris.' },
      stopReason: 'endTurn',
    });
    expect(model.requests[0]).toMatchObject({
      system: 'You are a helpful test server.',
      temperature: 0.7,
      maxOutputTokens: 30,
      messages: [
        { role: 'user', content: [{ type: 'text', text: expect.stringContaining('Capital of France?') }] },
      ],
    });
  });

  it('without a model, does not offer sampling, and a server asking anyway gets an error', async () => {
    await using(spawnEverything(), async (everything) => {
      expect(everything.tools.map((t) => t.mcpName)).not.toContain('trigger-sampling-request');
    });
    const result = await using(spawnFixture(), (fixture) => ask(fixture, 'Anyone there?'));
    expect(result).toMatchObject({ isError: true, text: expect.stringContaining('Method not found') });
  });

  it('lets approve decline a request, caps maxTokens, and reports a model failure to the server', async () => {
    const model = new ScriptedModel([{ error: new ModelError('rate_limit', 'slow down') }, { text: 'yes' }]);
    const seen: string[] = [];
    const approve = ({ messages }: { messages: Array<{ content: unknown }> }) => {
      const text = (messages[0]!.content as { text: string }).text;
      seen.push(text);
      return text !== 'decline me';
    };
    const results = await using(
      spawnFixture({ sampling: { model, approve, maxTokens: 20 } }),
      async (fixture) => [
        await ask(fixture, 'decline me'),
        await ask(fixture, 'fail me'),
        await ask(fixture, 'answer me'),
      ],
    );
    expect(seen).toEqual(['decline me', 'fail me', 'answer me']);
    expect(results[0]).toMatchObject({
      isError: true,
      text: 'MCP error -1: The user declined the sampling request',
    });
    expect(results[1]).toMatchObject({
      isError: true,
      text: expect.stringContaining('Sampling failed: slow down'),
    });
    expect(JSON.parse(results[2]!.text)).toMatchObject({ content: { type: 'text', text: 'yes' } });
    expect(model.requests.map((r) => r.maxOutputTokens)).toEqual([20, 20]);
  });
});
