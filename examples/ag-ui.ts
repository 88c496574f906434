/**
 * A tandem agent behind an AG-UI endpoint, offline: `@ag-ui/client`'s
 * `HttpAgent` (what CopilotKit and other AG-UI frontends use) talks to the
 * endpoint, its `fetch` going straight to the handler instead of the
 * network. The scripted model calls a frontend tool (`set_theme`, which the
 * client executes), then a server tool that needs approval (`refund`): the
 * run ends with an AG-UI interrupt, the "user" approves it through
 * `resume`, and the next run finishes.
 *
 * Run: npx tsx examples/ag-ui.ts
 */

import { HttpAgent } from '@ag-ui/client';
import { defineTool, Executor, InMemorySessionStore } from 'tandem-agents';
import { createAgUiHandler } from 'tandem-agents/ag-ui';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order',
  parameters: z.object({ order: z.string() }),
  needsApproval: true,
  execute: ({ order }) => `refunded order ${order}`,
});
const model = new ScriptedModel([
  {
    text: 'Switching to dark mode first.',
    toolCalls: [{ id: 'call_1', name: 'set_theme', args: { theme: 'dark' } }],
  },
  { text: '', toolCalls: [{ id: 'call_2', name: 'refund', args: { order: '42' } }] },
  { text: 'Done: dark theme, and order 42 is refunded.' },
]);

// The endpoint: the factory adds the frontend's tools (RunAgentInput.tools) to the agent's own.
const handler = createAgUiHandler({
  agent: ({ tools }) =>
    new Executor({ model, tools: [refund, ...tools], safety: { pauseOnInterrupt: true } }),
  sessions: new InMemorySessionStore(),
});

const agent = new HttpAgent({
  url: 'http://local/agui',
  threadId: 'thread-1',
  fetch: async (url, init) => handler.handle(new Request(url, init)),
});
const tools = [
  {
    name: 'set_theme',
    description: 'Switch the page theme',
    parameters: { type: 'object', properties: { theme: { type: 'string' } }, required: ['theme'] },
  },
];

/** One request: prints the events that matter, returns how the run finished. */
async function run(parameters: Parameters<HttpAgent['runAgent']>[0]): Promise<Record<string, unknown>> {
  let outcome: Record<string, unknown> = {};
  await agent.runAgent(parameters, {
    onEvent({ event }) {
      const e = event as unknown as Record<string, unknown>;
      if (e.type === 'TOOL_CALL_START') console.log(`tool call: ${e.toolCallName}`);
      if (e.type === 'TOOL_CALL_RESULT') console.log(`tool result: ${e.content}`);
      if (e.type === 'RUN_FINISHED') outcome = e.outcome as Record<string, unknown>;
    },
  });
  console.log(`run finished: ${JSON.stringify(outcome)}`);
  return outcome;
}

agent.addMessage({ id: 'u1', role: 'user', content: 'Dark mode, and refund order 42' });
await run({ tools });

// The client executes its tool and sends the result with the next request.
agent.addMessage({ id: 't1', role: 'tool', toolCallId: 'call_1', content: 'theme is dark' });
const paused = (await run({ tools })) as { interrupts?: { id: string; message?: string }[] };

// The user approves the refund: an AG-UI resume entry answers the interrupt.
const interrupt = paused.interrupts![0]!;
console.log(`approving: ${interrupt.message}`);
await run({
  tools,
  resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }],
});

const last = agent.messages.at(-1);
console.log(`assistant: ${last?.role === 'assistant' ? last.content : ''}`);
