/**
 * The real frontend: a React page with `@ai-sdk/react`'s `useChat`, bundled
 * with esbuild and driven in headless Chromium, chats with a tandem route,
 * shows the tool part and answers its approval; model text reaches the page
 * as text, never markup.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerApprovals,
  createUIStreamRegistry,
  fromUIMessages,
  type UIMessageLike,
} from '../../src/ai-sdk-ui/index.js';
import { defineTool, Executor, InMemorySessionStore } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MARKUP = '<b id="injected">bold</b>';

const refund = defineTool({
  name: 'refund',
  description: 'Refund an order',
  parameters: z.object({ order: z.string() }),
  needsApproval: true,
  execute: ({ order }) => `refunded order ${order}`,
});
const executor = new Executor({
  model: new ScriptedModel([
    { text: 'I will refund it.', toolCalls: [{ id: 'call_1', name: 'refund', args: { order: '42' } }] },
    { text: `Done ${MARKUP}` },
  ]),
  tools: [refund],
});
const sessions = new InMemorySessionStore();
const streams = createUIStreamRegistry();

/** The route of docs/ui-protocols.md. */
async function chat(request: Request): Promise<Response> {
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

let server: Server;
let browser: Browser;
let base = '';

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('../../examples/support/chat-page.js', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url === '/api/chat') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const response = await chat(
        new Request(`${base}/api/chat`, { method: 'POST', body: Buffer.concat(chunks) }),
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
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><div id="root"></div><script type="module" src="/app.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('useChat in Chromium', () => {
  it('chats, shows the tool part, answers the approval and gets the rest', async () => {
    const page = await browser.newPage();
    await page.goto(base);
    await page.click('#send');
    await page.waitForSelector('.tool[data-state="approval-requested"] .approve');
    expect(await page.textContent('.assistant .text')).toBe('I will refund it.');
    await page.click('.approve');
    await page.waitForSelector('.tool[data-state="output-available"]');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'ready');
    expect(await page.textContent('.tool')).toBe('refunded order 42');
    const texts = await page.$$eval('.assistant .text', (ps) => ps.map((p) => p.textContent));
    expect(texts).toEqual(['I will refund it.', `Done ${MARKUP}`]);
    expect(await page.$('#injected')).toBeNull(); // shown as text, never parsed as markup
    await page.close();
  }, 60_000);
});
