/**
 * The seeds' tool guardrails are on by default: a call whose URL points at a
 * private host, or whose command is destructive, is refused before it runs;
 * `guardrails: false` turns the checks off.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Executor } from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { lastToolResult, runCollect } from '../support/executor-fixtures.js';

function tools() {
  const ran: string[] = [];
  const fetchUrl = defineTool({
    name: 'fetch_url',
    description: 'Fetch a page',
    parameters: z.object({ url: z.string() }),
    execute: ({ url }) => {
      ran.push(url);
      return 'page';
    },
  });
  const runShell = defineTool({
    name: 'run_shell',
    description: 'Run a command',
    parameters: z.object({ command: z.string() }),
    execute: ({ command }) => {
      ran.push(command);
      return 'ran';
    },
  });
  return { ran, list: [fetchUrl, runShell] };
}

const metadata = {
  toolCalls: [{ name: 'fetch_url', args: { url: 'http://169.254.169.254/latest/meta-data' } }],
};
const wipe = { toolCalls: [{ name: 'run_shell', args: { command: 'rm -rf /' } }] };

describe('Executor: tool guardrails by default', () => {
  it('refuses a URL to a link-local host and a destructive command, with no options', async () => {
    const { ran, list } = tools();
    const model = new ScriptedModel([metadata, wipe, { text: 'done' }]);
    const { result } = await runCollect(new Executor({ model, tools: list, runtime: testRuntime() }), 'go');
    expect(result).toMatchObject({ status: 'success' });
    expect(ran).toEqual([]);
    expect(lastToolResult(model.requests[1]!)).toMatch(/^Tool blocked: /);
    expect(lastToolResult(model.requests[2]!)).toMatch(/^Tool blocked: /);
  });

  it('lets an ordinary call through', async () => {
    const { ran, list } = tools();
    const page = { toolCalls: [{ name: 'fetch_url', args: { url: 'https://example.com/' } }] };
    const model = new ScriptedModel([page, { text: 'done' }]);
    await runCollect(new Executor({ model, tools: list, runtime: testRuntime() }), 'go');
    expect(ran).toEqual(['https://example.com/']);
  });

  it('with guardrails: false runs the calls unchecked', async () => {
    const { ran, list } = tools();
    const model = new ScriptedModel([metadata, { text: 'done' }]);
    const executor = new Executor({
      model,
      tools: list,
      runtime: testRuntime(),
      safety: { guardrails: false },
    });
    await runCollect(executor, 'go');
    expect(ran).toEqual(['http://169.254.169.254/latest/meta-data']);
  });
});
