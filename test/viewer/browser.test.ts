/**
 * The viewer in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, watching real Orchestrator runs (scripted models, a fake
 * clock) served by the viewer handler behind a Node `http` server. Without a
 * Chromium binary the file is skipped with one line (scripts/test-deps.sh
 * installs it). Waits are event-driven: the page is awaited with
 * playwright's waitFor*, the run with its own promises.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { askHuman, MemoryCheckpointStore, MemoryInterruptBus, type RunState } from '../../src/index.js';
import { testRuntime } from '../../src/testing/index.js';
import { createViewerHandler, toNodeListener, type ViewerHandler } from '../../src/viewer/server/index.js';
import { ANSWER, gate, scenario, TASK, XSS } from './scenario.js';
import { busOf } from './support.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const available = existsSync(CHROMIUM);
if (!available)
  console.log(`viewer browser tests skipped: no Chromium at ${CHROMIUM} (scripts/test-deps.sh installs it)`);

/** Text of every element matching `selector`, in order. */
const texts = (within: Page | Locator, selector: string) => within.locator(selector).allTextContents();

describe.skipIf(!available)('viewer in Chromium', () => {
  const runtime = testRuntime();
  const bus = new MemoryInterruptBus({ clock: runtime.clock });
  const checkpoints = new MemoryCheckpointStore();
  const live = createViewerHandler({ bus, retryMs: 100, heartbeatMs: 0 });
  const saved = createViewerHandler({ basePath: '/saved', heartbeatMs: 0 });
  // Screenshots are kept only where TANDEM_VIEWER_SHOTS names a directory, for a person to look at.
  const keptShots = process.env.TANDEM_VIEWER_SHOTS;
  const shots = keptShots ?? mkdtempSync(join(tmpdir(), 'tandem-viewer-shots-'));
  const profile = mkdtempSync(join(tmpdir(), 'tandem-viewer-profile-'));
  const sseSockets: Socket[] = [];
  const resumedFrom: string[] = [];
  let server: Server;
  let base = '';
  let context: BrowserContext;
  /** The first run's events and its final view, for the replays to match. */
  const recorded: TandemEvent[] = [];
  let finalView: Record<string, string[]> = {};

  const route = (viewer: ViewerHandler) => toNodeListener(viewer.handle);
  beforeAll(async () => {
    const onLive = route(live);
    const onSaved = route(saved);
    server = createServer((req, res) => {
      if (req.url?.includes('/events')) {
        sseSockets.push(req.socket);
        if (req.headers['last-event-id']) resumedFrom.push(String(req.headers['last-event-id']));
      }
      (req.url?.startsWith('/saved') ? onSaved : onLive)(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1200, height: 900 },
    });
  }, 30_000);

  afterAll(async () => {
    await context?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    rmSync(profile, { recursive: true, force: true });
    if (keptShots) console.log(`viewer screenshots: ${shots}`);
    else rmSync(shots, { recursive: true, force: true });
  });

  /** A page that fails the test on any dialog or console error (a CSP violation logs one). */
  async function openPage(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(url);
    return { page, problems };
  }

  it('shows a live run from plan to answer, answers its approval, and keeps model text inert', async () => {
    const held = gate();
    const run = scenario({ runtime, held, bus, checkpoints }).run(TASK);
    live.track(run);
    run.on('*', (event) => recorded.push(event));
    const { page, problems } = await openPage(`${base}/#run=${run.runId}`);

    // Start: the plan is drawn and the report tool is running.
    await page.locator('[data-tool="fetch_report"].tv-tool-running').waitFor();
    expect(await texts(page, '.tv-step-id')).toEqual(['fetch', 'deploy', 'summary']);
    expect(await page.locator('[data-step="fetch"] .tv-badge').textContent()).toBe('running');
    expect(await page.locator('.tv-task').textContent()).toBe(TASK);
    await page.screenshot({ path: join(shots, 'start.png'), fullPage: true });

    // Middle: the report is in, the deploy waits for approval.
    held.open();
    const card = page.locator('.tv-interrupt.tv-kind-approval');
    await card.waitFor();
    expect(await card.textContent()).toContain('Approve deploy?');
    expect(await card.locator('.tv-badge').textContent()).toBe('risk: risky');
    expect(await card.locator('.tv-pre').textContent()).toContain('"service": "checkout"');
    expect(await texts(card, 'button')).toEqual(['Approve', 'Approve always', 'Deny']);
    expect(await page.locator('[data-step="fetch"] .tv-badge').textContent()).toBe('completed');
    await page.locator('[data-tool="fetch_report"] summary').click();
    const output = page.locator('[data-tool="fetch_report"] .tv-pre').nth(1);
    expect(await output.textContent()).toContain(XSS);
    await page.getByRole('button', { name: /^Show all [\d,]+ characters$/ }).click();
    expect(await output.textContent()).toContain('Regional detail. Regional detail.');
    expect(await page.locator('img').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'middle.png'), fullPage: true });

    // End: approved from the page, the run goes on to its answer.
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    const result = await run.result;
    expect(result.status).toBe('success');
    await page.locator('.tv-outcome .tv-answer').waitFor();
    expect(await page.locator('.tv-outcome .tv-answer').textContent()).toBe(ANSWER);
    await page.locator('.tv-head .tv-badge', { hasText: 'success' }).waitFor();
    expect(await page.locator('.tv-approvals').count()).toBe(0);
    expect(await texts(page, '.tv-step .tv-badge')).toEqual(['completed', 'completed', 'completed']);
    expect(await page.locator('.tv-usage').textContent()).toBe('tokens 3,600 in · 540 out');
    expect(await page.locator('.tv-wf-row').count()).toBe(11);
    await page.screenshot({ path: join(shots, 'end.png'), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'end-390.png'), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    finalView = await viewOf(page);

    expect(await page.locator('img').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('answers a decision and an input question from the page', async () => {
    const events = busOf('run_questions', runtime.clock);
    live.track(events, { title: 'Questions' });
    events.emit('run_started', { input: 'Questions' });
    const ask = { bus, runId: 'run_questions', clock: runtime.clock, random: runtime.random, emit: events };
    const decision = askHuman({ kind: 'decision', title: 'Which colour?', options: ['red', 'blue'] }, ask);
    const { page, problems } = await openPage(`${base}/#run=run_questions`);
    const choice = page.locator('.tv-interrupt.tv-kind-decision');
    await choice.waitFor();
    expect(await texts(choice, 'button')).toEqual(['red', 'blue', 'Skip']);
    await choice.getByRole('button', { name: 'blue' }).click();
    expect((await decision).outcome).toEqual({ action: 'select', value: 'blue', timedOut: false });

    const input = askHuman({ kind: 'input', title: 'Release name?' }, ask);
    const field = page.locator('.tv-interrupt.tv-kind-input');
    await field.waitFor();
    await field.locator('textarea').fill('Ada <b>Lovelace</b>');
    await field.getByRole('button', { name: 'Send' }).click();
    expect((await input).outcome).toEqual({ action: 'input', value: 'Ada <b>Lovelace</b>', timedOut: false });
    await page.locator('.tv-approvals').waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a running command as a live terminal, its output as text', async () => {
    const events = busOf('run_terminal', runtime.clock);
    live.track(events, { title: 'Terminal' });
    events.emit('run_started', { input: 'Run the script' });
    events.emit('tool_call', {
      id: 'call_t',
      name: 'execute_code',
      args: { language: 'bash', code: './build.sh' },
    });
    const tagged = events.scope({ parentId: 'call_t' });
    tagged.emit('terminal_command', { id: 'call_t', command: './build.sh', language: 'bash' });
    tagged.emit('terminal_output', { id: 'call_t', text: 'step 1 <img src=x onerror="window.__xss=1">\n' });
    const { page, problems } = await openPage(`${base}/#run=run_terminal`);
    const row = page.locator('[data-tool="execute_code"]');
    await row.locator('summary').click();
    const terminal = row.locator('pre.tv-terminal');
    await terminal.waitFor();
    expect(await terminal.textContent()).toBe('$ ./build.sh\nstep 1 <img src=x onerror="window.__xss=1">\n');
    expect(await row.locator('.tv-terminal-live').textContent()).toBe('live');
    tagged.emit('terminal_error', { id: 'call_t', text: 'warning: slow\n' });
    tagged.emit('terminal_complete', {
      id: 'call_t',
      exitCode: 0,
      timedOut: false,
      durationMs: 5000,
      truncated: false,
    });
    await row.locator('.tv-terminal-done').waitFor();
    expect(await terminal.textContent()).toContain('warning: slow');
    expect(await row.locator('.tv-terminal-done').textContent()).toBe('exit 0');
    expect(await row.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('enforces the CSP: an inline script put in the page does not run', async () => {
    const { page } = await openPage(`${base}/`);
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      return (window as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    await page.close();
  });

  it('shows every event exactly once after the SSE connection is killed mid-run', async () => {
    const held = gate();
    const run = scenario({ runtime, held }).run(TASK);
    live.track(run);
    const { page, problems } = await openPage(`${base}/#run=${run.runId}`);
    await page.locator('[data-tool="fetch_report"].tv-tool-running').waitFor();
    const sockets = sseSockets.length;
    sseSockets.at(-1)!.destroy();
    held.open();
    await run.result;
    await page.locator('.tv-outcome .tv-answer').waitFor();
    const stats = await page.evaluate(
      () =>
        (document.querySelector('tandem-run-viewer') as unknown as { stats: Record<string, number> }).stats,
    );
    const sent = live.details(run.runId)!.events;
    expect(sseSockets.length).toBeGreaterThan(sockets);
    expect(resumedFrom.length).toBeGreaterThan(0);
    expect(stats).toMatchObject({ frames: sent, lastSeq: sent, duplicates: 0, gaps: 0 });
    expect(stats.reconnects).toBeGreaterThanOrEqual(1);
    expect(problems.filter((p) => !p.includes('ERR_'))).toEqual([]);
    await page.close();
  });

  it('replays the saved state and the recorded event log with the same final view', async () => {
    const runId = recorded[0]!.runId;
    const state = (await checkpoints.load(runId)) as RunState;
    expect(state.status).toBe('completed');
    saved.addState(state);
    const fromState = await openPage(`${base}/saved/#run=${runId}`);
    await fromState.page.locator('.tv-outcome .tv-answer').waitFor();
    const stateView = await viewOf(fromState.page);
    for (const part of ['plan', 'steps', 'answer', 'usage'] as const)
      expect(stateView[part]).toEqual(finalView[part]);
    await fromState.page.close();

    const fromLog = await openPage(`${base}/saved/`);
    await fromLog.page.locator('.tv-source', { hasText: 'saved state' }).waitFor();
    await fromLog.page.locator('.tv-file').setInputFiles({
      name: 'run.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(recorded.map((e) => JSON.stringify(e)).join('\n')),
    });
    await fromLog.page.locator('.tv-source', { hasText: `replay of ${recorded.length} events` }).waitFor();
    expect(await viewOf(fromLog.page)).toEqual(finalView);
    expect(fromLog.problems).toEqual([]);
    await fromLog.page.close();
  });
});

/** The parts of a run's final view a replay must match. */
async function viewOf(page: Page): Promise<Record<string, string[]>> {
  return {
    plan: await texts(page, '.tv-plan-title'),
    steps: await texts(page, '.tv-step-head, .tv-step-desc'),
    answer: await texts(page, '.tv-outcome'),
    usage: await texts(page, '.tv-usage'),
    tools: await texts(page, '.tv-tool summary'),
    flow: await texts(page, '.tv-flow'),
    timing: await texts(page, '.tv-waterfall'),
  };
}
