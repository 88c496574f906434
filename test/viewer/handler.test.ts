/**
 * The viewer's Fetch handler without a browser: routes, the page's CSP, SSE
 * resumption after `Last-Event-ID`, the answer token, and the bounds.
 */
import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/core/usage.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { buildInterrupt } from '../../src/safety/approvals/interrupts.js';
import type { RunState } from '../../src/state/run-state.js';
import { FakeClock, sequentialIds } from '../../src/testing/index.js';
import { ViewerError } from '../../src/viewer/errors.js';
import { createViewerHandler, type ViewerHandlerOptions } from '../../src/viewer/server/index.js';
import { busOf, eventsOf, readFrames } from './support.js';

const ASSETS = { script: 'console.log("viewer")', style: 'body{margin:0}' };
const ORIGIN = 'http://127.0.0.1:4173';

function viewerWith(options: ViewerHandlerOptions = {}) {
  return createViewerHandler({
    assets: ASSETS,
    runtime: { ids: sequentialIds(), clock: new FakeClock() },
    ...options,
  });
}

const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, { headers });

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A tracked run that emitted run_started, a stage and `more` tokens. */
function liveRun(viewer = viewerWith(), runId = 'run_1', more = 3) {
  const bus = busOf(runId);
  const shown = viewer.track(bus);
  bus.emit('run_started', { input: 'Count the files' });
  bus.emit('stage', { name: 'executing', status: 'running' });
  for (let i = 0; i < more; i++) bus.emit('token', { delta: `t${i} ` });
  return { viewer, bus, ...shown };
}

describe('viewer handler: page and files', () => {
  it('serves the page with a strict CSP and no inline script or style', async () => {
    const response = await viewerWith().handle(get('/'));
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toContain('<script type="module" src="/viewer.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/viewer.css">');
    expect(html).not.toMatch(/<style|style=|<script>|<script type="module">/);
  });

  it('serves the script and the stylesheet under the base path with their content types', async () => {
    const viewer = viewerWith({ basePath: '/tandem/' });
    const page = await (await viewer.handle(get('/tandem'))).text();
    expect(page).toContain('src="/tandem/viewer.js"');
    expect(page).toContain('api="/tandem/api"');
    const js = await viewer.handle(get('/tandem/viewer.js'));
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe(ASSETS.script);
    const css = await viewer.handle(get('/tandem/viewer.css'));
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toBe(ASSETS.style);
  });

  it('builds the page script from src/viewer when no assets are given (the package inlines it)', async () => {
    const viewer = createViewerHandler();
    const script = await (await viewer.handle(get('/viewer.js'))).text();
    expect(script).toContain('tandem-run-viewer');
    expect(script).not.toContain('innerHTML');
  });

  it('answers 404 outside the base path and for unknown routes and runs, 405 for a wrong method', async () => {
    const { viewer } = liveRun(viewerWith({ basePath: '/tandem' }));
    const status = async (request: Request) => (await viewer.handle(request)).status;
    expect(await status(get('/'))).toBe(404);
    expect(await status(get('/tandemx/viewer.js'))).toBe(404);
    expect(await status(get('/tandem/nothing'))).toBe(404);
    expect(await status(get('/tandem/api/runs/run_1/nothing'))).toBe(404);
    expect(await status(get('/tandem/api/runs/run_1/events/more'))).toBe(404);
    expect(await status(get('/tandem/api/runs/run_1/state'))).toBe(404);
    const unknown = await viewer.handle(get('/tandem/api/runs/nope'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { kind: 'unknown_run', message: 'No run nope is shown here' },
    });
    expect(await status(get('/tandem/api/runs/%E0%A4%A'))).toBe(400);
    const wrong = await viewer.handle(post('/tandem/api/runs', {}));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('refuses a Host outside allowedHosts (DNS rebinding) and a request authorize turns down', async () => {
    const hosts = viewerWith({ allowedHosts: ['127.0.0.1:4173'] });
    expect((await hosts.handle(get('/'))).status).toBe(200);
    expect((await hosts.handle(new Request('http://evil.example:4173/'))).status).toBe(403);
    const seen: (string | undefined)[] = [];
    const guarded = viewerWith({
      authorize: (_request, runId) => {
        seen.push(runId);
        return runId !== 'run_1';
      },
    });
    liveRun(guarded);
    expect((await guarded.handle(get('/api/runs'))).status).toBe(200);
    expect((await guarded.handle(get('/api/runs/run_1'))).status).toBe(403);
    expect(seen).toEqual([undefined, 'run_1']);
  });

  it('rejects a relative base path and non-positive limits with a typed error', () => {
    expect(() => createViewerHandler({ basePath: 'tandem' })).toThrow(ViewerError);
    expect(() => createViewerHandler({ maxEventsPerRun: 0 })).toThrow(
      /maxEventsPerRun must be a positive integer/,
    );
    try {
      createViewerHandler({ maxRuns: 1.5 });
    } catch (error) {
      expect((error as ViewerError).kind).toBe('invalid_option');
    }
  });
});

describe('viewer handler: runs', () => {
  it('lists runs newest first with their source, status, events and waiting questions', async () => {
    const viewer = viewerWith();
    const first = liveRun(viewer, 'run_1');
    first.bus.emit('complete', { output: 'done', status: 'success', usage: first.bus.usage });
    liveRun(viewer, 'run_2');
    const { runs } = await (await viewer.handle(get('/api/runs'))).json();
    expect(runs.map((r: any) => [r.runId, r.title, r.source, r.status, r.events])).toEqual([
      ['run_2', 'Count the files', 'live', 'running', 5],
      ['run_1', 'Count the files', 'live', 'completed', 6],
    ]);
    expect(runs[1].endedAt).toBe(1_000);
  });

  it('gives the answer token only for a live run with an interrupt bus', async () => {
    const withBus = viewerWith({ bus: new MemoryInterruptBus() });
    const { token } = liveRun(withBus);
    expect(await (await withBus.handle(get('/api/runs/run_1'))).json()).toMatchObject({
      runId: 'run_1',
      token,
    });
    const without = viewerWith();
    liveRun(without);
    expect(await (await without.handle(get('/api/runs/run_1'))).json()).not.toHaveProperty('token');
  });

  it('refuses to show the same run id twice', () => {
    const { viewer } = liveRun();
    expect(() => viewer.track(busOf('run_1'))).toThrow(expect.objectContaining({ kind: 'duplicate_run' }));
  });

  it('forgets the oldest ended run past maxRuns, never a running one', () => {
    const viewer = viewerWith({ maxRuns: 2 });
    const a = liveRun(viewer, 'a');
    liveRun(viewer, 'b');
    liveRun(viewer, 'c');
    expect(viewer.runs().map((r) => r.runId)).toEqual(['c', 'b', 'a']);
    a.bus.emit('error', { error: { kind: 'internal', message: 'boom' } });
    liveRun(viewer, 'd');
    expect(viewer.runs().map((r) => r.runId)).toEqual(['d', 'c', 'b']);
  });

  it('marks a run that stopped at a question as paused', () => {
    const { viewer, bus } = liveRun();
    bus.emit('error', { error: { kind: 'interrupted', message: 'waiting for approval' } });
    expect(viewer.runs()[0]!.status).toBe('paused');
  });

  it('marks a run that resolved interrupted as paused', () => {
    const { viewer, bus } = liveRun();
    bus.emit('complete', { output: '', status: 'interrupted', usage: emptyUsage() });
    expect(viewer.runs()[0]!.status).toBe('paused');
  });

  it('serves a saved state as JSON and a recorded log as a finished SSE stream', async () => {
    const viewer = viewerWith();
    const state = {
      version: 1,
      runId: 'saved',
      task: 'Saved task',
      status: 'completed',
      steps: [],
      order: [],
      handoffs: [],
      interrupts: [],
      usage: { inputTokens: 1, outputTokens: 2, cachedInputTokens: 0, reasoningTokens: 0 },
      updatedAt: 5,
      phase: 'done',
      revisions: 0,
      conversations: {},
    } as unknown as RunState;
    viewer.addState(state);
    expect(await (await viewer.handle(get('/api/runs/saved/state'))).json()).toEqual(state);
    expect((await viewer.handle(get('/api/runs/saved/events'))).status).toBe(404);
    const { bus } = liveRun(viewerWith(), 'logged');
    const events: any[] = [];
    bus.on('*', (e) => events.push(e));
    bus.emit('complete', { output: 'ok', status: 'success', usage: bus.usage });
    viewer.addLog([{ type: 'run_started', runId: 'logged', seq: 1, at: 1, input: 'Logged task' }, ...events]);
    expect(viewer.runs().map((r) => [r.runId, r.title, r.source, r.status])).toEqual([
      ['logged', 'Logged task', 'log', 'completed'],
      ['saved', 'Saved task', 'state', 'completed'],
    ]);
    const frames = await readFrames(await viewer.handle(get('/api/runs/logged/events')));
    expect(eventsOf(frames).map((e) => e.type)).toEqual(['run_started', 'complete']);
  });
});

describe('viewer handler: SSE', () => {
  it('streams each event as a frame with id: <seq>, after a retry field, and ends after the terminal event', async () => {
    const { viewer, bus } = liveRun(viewerWith({ retryMs: 250 }));
    const response = await viewer.handle(get('/api/runs/run_1/events'));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    bus.emit('complete', { output: 'done', status: 'success', usage: bus.usage });
    const frames = await readFrames(response);
    expect(frames[0]).toEqual({ retry: '250' });
    expect(frames.slice(1).map((f) => [f.id, f.event])).toEqual([
      ['1', 'run_started'],
      ['2', 'stage'],
      ['3', 'token'],
      ['4', 'token'],
      ['5', 'token'],
      ['6', 'complete'],
    ]);
  });

  it('resumes after Last-Event-ID with every later event exactly once, including those sent while away', async () => {
    const { viewer, bus } = liveRun();
    const first = await readFrames(
      await viewer.handle(get('/api/runs/run_1/events')),
      (f) => eventsOf(f).length === 3,
    );
    const seen = eventsOf(first).map((e) => e.seq);
    bus.emit('token', { delta: 'while away' });
    const resumed = await viewer.handle(
      get('/api/runs/run_1/events', { 'last-event-id': String(seen.at(-1)) }),
    );
    bus.emit('complete', { output: 'done', status: 'success', usage: bus.usage });
    seen.push(...eventsOf(await readFrames(resumed)).map((e) => e.seq));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('resumes after ?after=<seq> too, taking the later of it and Last-Event-ID', async () => {
    const { viewer, bus } = liveRun();
    bus.emit('complete', { output: 'done', status: 'success', usage: bus.usage });
    const byQuery = await readFrames(await viewer.handle(get('/api/runs/run_1/events?after=4')));
    expect(eventsOf(byQuery).map((e) => e.seq)).toEqual([5, 6]);
    const both = await readFrames(
      await viewer.handle(get('/api/runs/run_1/events?after=2', { 'last-event-id': '5' })),
    );
    expect(eventsOf(both).map((e) => e.seq)).toEqual([6]);
    const bogus = await readFrames(await viewer.handle(get('/api/runs/run_1/events?after=-3')));
    expect(eventsOf(bogus)).toHaveLength(6);
  });
});

describe('viewer handler: answers', () => {
  async function waitingRun() {
    const clock = new FakeClock();
    const bus = new MemoryInterruptBus({ clock });
    const viewer = viewerWith({ bus });
    const run = liveRun(viewer);
    const other = liveRun(viewer, 'run_2');
    const request = buildInterrupt(
      { kind: 'approval', title: 'Approve deploy?', toolName: 'deploy', args: { service: 'checkout' } },
      { id: 'int_1', runId: 'run_1', createdAt: 0 },
    );
    await bus.publish(request);
    const answer = bus.waitFor('int_1', { timeoutMs: 60_000 });
    run.bus.emit('interrupt', { interrupt: request });
    return { viewer, run, other, answer, path: '/api/runs/run_1/interrupts/int_1' };
  }

  it('delivers an answer with the run’s token through the interrupt bus, once', async () => {
    const { viewer, run, answer, path } = await waitingRun();
    const response = await viewer.handle(post(path, { action: 'approve' }, { 'x-tandem-token': run.token }));
    expect(response.status).toBe(200);
    expect(await answer).toEqual({ action: 'approve' });
    const again = await viewer.handle(post(path, { action: 'deny' }, { 'x-tandem-token': run.token }));
    expect(again.status).toBe(409);
  });

  it('refuses an answer without the token, with a wrong one, or with another run’s token', async () => {
    const { viewer, other, path } = await waitingRun();
    const kinds = [];
    const attempts: Record<string, string>[] = [
      {},
      { 'x-tandem-token': 'vt_999' },
      { 'x-tandem-token': other.token },
    ];
    for (const headers of attempts) {
      const response = await viewer.handle(post(path, { action: 'approve' }, headers));
      expect(response.status).toBe(403);
      kinds.push((await response.json()).error.kind);
    }
    expect(kinds).toEqual(['bad_token', 'bad_token', 'bad_token']);
  });

  it('refuses a question of another run even with a valid token', async () => {
    const { viewer, other } = await waitingRun();
    const response = await viewer.handle(
      post('/api/runs/run_2/interrupts/int_1', { action: 'approve' }, { 'x-tandem-token': other.token }),
    );
    expect(response.status).toBe(404);
    expect((await response.json()).error.kind).toBe('unknown_interrupt');
  });

  it('refuses a body that is not JSON, an answer the kind does not accept, and a form post', async () => {
    const { viewer, run, path } = await waitingRun();
    const token = { 'x-tandem-token': run.token };
    expect((await viewer.handle(post(path, 'approve', token))).status).toBe(400);
    expect((await viewer.handle(post(path, { value: 1 }, token))).status).toBe(400);
    const invalid = await viewer.handle(post(path, { action: 'select', value: 'x' }, token));
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.kind).toBe('invalid_response');
    const form = await viewer.handle(
      post(path, 'action=approve', { ...token, 'content-type': 'application/x-www-form-urlencoded' }),
    );
    expect(form.status).toBe(415);
    expect((await viewer.handle(get(path))).status).toBe(405);
  });

  it('keeps questions read-only for a run without a bus', async () => {
    const { viewer, bus, token } = liveRun();
    bus.emit('interrupt', {
      interrupt: { id: 'int_1', kind: 'approval', title: 'Approve?', timeoutMs: 1, defaultAction: 'deny' },
    });
    const response = await viewer.handle(
      post('/api/runs/run_1/interrupts/int_1', { action: 'approve' }, { 'x-tandem-token': token }),
    );
    expect(response.status).toBe(409);
    expect((await response.json()).error.kind).toBe('not_answerable');
  });
});
