/**
 * A tandem agent behind an AI SDK chat route, offline: the route speaks the
 * UI message stream `useChat` reads, and the AI SDK's own client side (its
 * `DefaultChatTransport` and `readUIMessageStream`, as `useChat` uses them)
 * talks to it. The scripted model asks to refund an order; the tool needs
 * approval, so the stream asks the UI; the "user" approves in the message,
 * as `addToolApprovalResponse` does, and the next request resumes the run.
 *
 * Run: npx tsx examples/ui-message-stream.ts
 */

import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { defineTool, Executor, InMemorySessionStore } from 'tandem-agents';
import {
  answerApprovals,
  createUIStreamRegistry,
  fromUIMessages,
  type UIMessageLike,
} from 'tandem-agents/ai-sdk-ui';
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
  { text: 'I will refund it.', toolCalls: [{ id: 'call_1', name: 'refund', args: { order: '42' } }] },
  { text: 'Done: order 42 is refunded.' },
]);
const executor = new Executor({ model, tools: [refund] });
const sessions = new InMemorySessionStore();
const streams = createUIStreamRegistry();

/** The route: what `POST /api/chat` runs in Next.js or Hono (docs/ui-protocols.md). */
async function POST(request: Request): Promise<Response> {
  const { id, messages } = (await request.json()) as { id: string; messages: UIMessageLike[] };
  const { input, approvals, messageId } = fromUIMessages(messages);
  const session = sessions.session(id);
  const paused = approvals.length > 0 ? streams.takePaused(id) : undefined;
  if (paused) {
    const run = executor.resume(answerApprovals(paused, approvals), { session });
    return streams.serve(run, { chatId: id, messageId, approvals });
  }
  return streams.serve(executor.run(input ?? '', { session }), { chatId: id });
}

// The client: the AI SDK's transport, with `fetch` going straight to the route instead of the network.
const transport = new DefaultChatTransport<UIMessage>({
  api: 'http://local/api/chat',
  fetch: async (url, init) => POST(new Request(url, init)),
});

async function send(messages: UIMessage[], last?: UIMessage): Promise<UIMessage> {
  const stream = await transport.sendMessages({
    chatId: 'chat-1',
    messages,
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let message = last;
  for await (const m of readUIMessageStream({ stream, message })) message = m;
  if (!message) throw new Error('the route streamed no message');
  return message;
}

function show(message: UIMessage): void {
  for (const part of message.parts) {
    if (part.type === 'text') console.log(`assistant: ${part.text}`);
    else if (part.type === 'tool-refund')
      console.log(`tool-refund: ${part.state} ${JSON.stringify(part.output ?? part.input)}`);
    else if (part.type.startsWith('data-'))
      console.log(`${part.type}: ${JSON.stringify((part as { data: unknown }).data)}`);
  }
}

const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Refund order 42' }] };
const asked = await send([user]);
show(asked);

// What `addToolApprovalResponse({ id, approved: true })` does to the waiting part.
const approved = structuredClone(asked);
for (const part of approved.parts) {
  if ('approval' in part && part.state === 'approval-requested')
    Object.assign(part, { state: 'approval-responded', approval: { id: part.approval.id, approved: true } });
}
console.log('--- approved in the UI; the next request resumes the run');
show(await send([user, approved], approved));
