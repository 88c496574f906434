/** `toNodeListener`: the Fetch handler behind a real Node `http` server. */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { buildInterrupt } from '../../src/safety/approvals/interrupts.js';
import { FakeClock } from '../../src/testing/index.js';
import { createViewerHandler, toNodeListener } from '../../src/viewer/server/index.js';
import { busOf } from './support.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(
  handle: (request: Request) => Promise<Response>,
  maxBodyBytes?: number,
): Promise<string> {
  server = createServer(toNodeListener(handle, { maxBodyBytes }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('toNodeListener', () => {
  it('serves the page with its headers and answers a POST with its body', async () => {
    const bus = new MemoryInterruptBus({ clock: new FakeClock() });
    const viewer = createViewerHandler({ bus, assets: { script: '', style: '' } });
    const run = busOf();
    const { token } = viewer.track(run);
    const request = buildInterrupt(
      { kind: 'input', title: 'Your name?' },
      { id: 'int_1', runId: 'run_1', createdAt: 0 },
    );
    await bus.publish(request);
    const answer = bus.waitFor('int_1', { timeoutMs: 1_000 });
    run.emit('interrupt', { interrupt: request });
    const base = await serve(viewer.handle);

    const page = await fetch(`${base}/`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<tandem-viewer');
    const posted = await fetch(`${base}/api/runs/run_1/interrupts/int_1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tandem-token': token },
      body: JSON.stringify({ action: 'input', value: 'Ada' }),
    });
    expect(posted.status).toBe(200);
    expect(await answer).toEqual({ action: 'input', value: 'Ada' });
  });

  it('refuses a body over maxBodyBytes with 413', async () => {
    const base = await serve(createViewerHandler({ assets: { script: '', style: '' } }).handle, 8);
    const response = await fetch(`${base}/api/runs`, { method: 'POST', body: 'x'.repeat(100) });
    expect(response.status).toBe(413);
  });

  it('streams SSE as events arrive and releases the stream when the client disconnects', async () => {
    const viewer = createViewerHandler({ assets: { script: '', style: '' }, heartbeatMs: 0 });
    const run = busOf();
    viewer.track(run);
    run.emit('run_started', { input: 'task' });
    const signals: AbortSignal[] = [];
    const base = await serve((request) => {
      signals.push(request.signal);
      return viewer.handle(request);
    });
    const closed = new Promise<void>((resolve) =>
      server!.once('connection', (socket) => socket.once('close', resolve)),
    );
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${base}/api/runs/run_1/events`, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          received.push(chunk);
          if (chunk.includes('run_started')) run.emit('token', { delta: 'hello' });
          if (chunk.includes('hello')) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    await closed;
    const signal = signals[0]!;
    await new Promise((resolve) =>
      signal.aborted ? resolve(undefined) : signal.addEventListener('abort', resolve),
    );
    expect(received.join('')).toMatch(
      /^retry: 1000\n\nid: 1\nevent: run_started\n[\s\S]*id: 2\nevent: token\n/,
    );
    run.emit('complete', { output: 'done', status: 'success', usage: run.usage });
    expect(viewer.runs()[0]).toMatchObject({ status: 'completed', events: 3 });
  });
});
