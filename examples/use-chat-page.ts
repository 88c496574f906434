/**
 * A `useChat` page talking to a tandem agent, offline: a React page with the
 * AI SDK's `useChat` (examples/support/chat-page.js, bundled here with
 * esbuild) and the route of docs/ui-protocols.md on one loopback server. The
 * scripted agent asks to refund an order; the tool needs approval, so the
 * page shows an Approve button; pressing it resumes the run.
 *
 * Run: npx tsx examples/use-chat-page.ts           then open the printed address
 *      npx tsx examples/use-chat-page.ts --once    serve, check the page and the route answer, exit
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
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
// Loops, so every new chat of the page gets the same two turns.
const model = new ScriptedModel(
  [
    { text: 'I will refund it.', toolCalls: [{ name: 'refund', args: { order: '42' } }] },
    // Markup a model writes reaches the page as text, never as elements.
    { text: 'Done: order 42 is <b id="injected">refunded</b>.' },
  ],
  { loop: true },
);
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

const page = await build({
  entryPoints: [fileURLToPath(new URL('./support/chat-page.js', import.meta.url))],
  bundle: true,
  write: false,
  format: 'esm',
  minify: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'silent',
});
const script = page.outputFiles[0]!.text;
const html =
  '<!doctype html><title>tandem + useChat</title><div id="root"></div><script type="module" src="/app.js"></script>';

const server = createServer(async (req, res) => {
  if (req.method === 'POST' && req.url === '/api/chat') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const response = await POST(
      new Request('http://local/api/chat', { method: 'POST', body: Buffer.concat(chunks) }),
    );
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    res.writeHead(response.status, headers);
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) res.write(part);
    res.end();
  } else if (req.url === '/app.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
  } else {
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
console.log(`useChat page: ${base}  (page script ${Math.round(script.length / 1024)} KB)`);

if (process.argv.includes('--once')) {
  // What the page does on "Send": one request to the route, read to the approval request.
  const pageHtml = await (await fetch(base)).text();
  console.log(`page: ${pageHtml.includes('/app.js') ? 'serves the useChat app' : 'missing its script'}`);
  const body = {
    id: 'chat-1',
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Refund order 42' }] }],
  };
  const stream = await (
    await fetch(`${base}/api/chat`, { method: 'POST', body: JSON.stringify(body) })
  ).text();
  const types = [...stream.matchAll(/"type":"([a-z-]+)"/g)].map((m) => m[1]);
  console.log(
    `route: ${types.includes('tool-approval-request') ? 'asks the page to approve refund' : 'no approval asked'}`,
  );
  server.close();
} else {
  console.log('Open it, press Send, then Approve. Ctrl-C to stop.');
}
