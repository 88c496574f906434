/**
 * Browser tools on a real Chromium (Debian's, headless) driven by scripted
 * models against a test site on loopback. One browser session is shared by
 * the file; the abort and orphan tests start their own. Without a Chromium
 * binary the file is skipped with one line (scripts/test-deps.sh installs it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserError, BrowserSession, browserTools } from '../../src/browser/index.js';
import {
  ApprovalGate,
  Executor,
  Guardrails,
  type ModelRequest,
  type TandemEvent,
  toolArgsGuardrail,
} from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, type ScriptStep, testRuntime } from '../../src/testing/index.js';
import { createViewerHandler, toNodeListener } from '../../src/viewer/server/index.js';
import {
  CHROMIUM,
  fileAppears,
  gone,
  haveChromium,
  profilesOfChildren,
  startForbiddenServer,
  startTestSite,
  type TestServer,
} from './support.js';

if (!haveChromium)
  console.log(`browser tests skipped: no Chromium at ${CHROMIUM} (scripts/test-deps.sh installs it)`);

const host = fileURLToPath(new URL('./fixtures/host.ts', import.meta.url));

/** The text of the last tool result the model was sent. */
function lastResult(request: ModelRequest): string {
  const last = request.messages.at(-1);
  if (last?.role !== 'tool') return '';
  return last.content.map((part) => String(part.content)).join('\n');
}

/** The ref of the snapshot line that contains `label`. */
function refOf(snapshot: string, label: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(label));
  const ref = line && /\[ref=(\w+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${label} in:\n${snapshot}`);
  return ref;
}

const call = (name: string, args: unknown = {}): ScriptStep => ({ toolCalls: [{ name, args }] });

describe.skipIf(!haveChromium)('browser tools in Chromium', () => {
  let site: TestServer;
  let forbidden: TestServer;
  let session: BrowserSession;
  let viewerServer: Server;
  let viewerBase = '';
  const viewer = createViewerHandler({ heartbeatMs: 0 });
  const downloads = mkdtempSync(join(tmpdir(), 'tandem-browser-dl-'));

  beforeAll(async () => {
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden.port);
    viewerServer = createServer(toNodeListener(viewer.handle));
    await new Promise<void>((resolve) => viewerServer.listen(0, '127.0.0.1', resolve));
    viewerBase = `http://127.0.0.1:${(viewerServer.address() as AddressInfo).port}`;
    session = new BrowserSession({
      executablePath: CHROMIUM,
      network: { allowHosts: [`127.0.0.1:${site.port}`] },
      // Generous for a loaded CI machine running many files at once; the never-loading page still times out typed.
      navigationTimeoutMs: 8_000,
      actionTimeoutMs: 4_000,
      downloadsDir: downloads,
      viewerUrl: (runId) => `${viewerBase}/#run=${runId}`,
    });
    await session.start();
  }, 30_000);

  afterAll(async () => {
    await session?.dispose();
    await site?.stop();
    await forbidden?.stop();
    await new Promise<void>((resolve) => (viewerServer ? viewerServer.close(() => resolve()) : resolve()));
    rmSync(downloads, { recursive: true, force: true });
  });

  /** The executor's argument scan, with the test site allowlisted as the session's network rules have it. */
  const siteGuardrails = () =>
    new Guardrails({ tool: [toolArgsGuardrail({ url: { allowHosts: [`127.0.0.1:${site.port}`] } })] });

  /** Runs `script` through an Executor with the browser tools; its events and result. */
  async function drive(script: ScriptEntry[], options: { needsApproval?: readonly string[] } = {}) {
    const model = new ScriptedModel(script);
    const tools = browserTools(session, options as never);
    const executor = new Executor({
      model,
      tools,
      runtime: testRuntime(),
      safety: { guardrails: siteGuardrails() },
    });
    const run = executor.run('use the browser');
    const events: TandemEvent[] = [];
    run.on('*', (event) => {
      events.push(event);
      if (process.env.H_DEBUG) console.log(Date.now() % 100000, event.type);
    });
    const result = await run.result;
    const results = events.filter((e): e is TandemEvent<'tool_result'> => e.type === 'tool_result');
    return { model, executor, result, events, results };
  }

  it('fills and submits a form by refs from the page snapshot, and reads the result', async () => {
    const { result, results, events } = await drive([
      call('browser_navigate', { url: `${site.base}/form` }),
      call('browser_snapshot'),
      (request) => call('browser_type', { ref: refOf(lastResult(request), 'textbox "Name"'), text: 'Ada' }),
      call('browser_snapshot'),
      (request) => call('browser_click', { ref: refOf(lastResult(request), 'button "Submit"') }),
      call('browser_wait', { selector: '#greeting' }),
      call('browser_snapshot'),
      (request) => ({ text: lastResult(request) }),
    ]);
    expect(results.map((r) => r.isError)).toEqual(Array(7).fill(false));
    expect(result.output).toContain('Hello, Ada!');
    expect(site.hits).toContain('/result?name=Ada');
    const actions = events.filter((e): e is TandemEvent<'browser_action'> => e.type === 'browser_action');
    expect(actions.map((a) => a.action)).toEqual([
      'browser_navigate',
      'browser_snapshot',
      'browser_type',
      'browser_snapshot',
      'browser_click',
      'browser_wait',
      'browser_snapshot',
    ]);
    expect(actions.every((a) => a.ok && a.parentId !== undefined)).toBe(true);
    expect(actions.at(-1)?.url).toBe(`${site.base}/result?name=Ada`);
  });

  it('scrolls by pixels and to an element, and submits with a key press', async () => {
    const scrolled = await drive([
      call('browser_navigate', { url: `${site.base}/long` }),
      call('browser_scroll', { direction: 'down', pixels: 800 }),
      call('browser_scroll', { selector: '#end' }),
      { text: 'x' },
    ]);
    expect(scrolled.results.map((r) => r.isError)).toEqual([false, false, false]);
    expect(scrolled.results[1]?.output).toContain('"scroll":{"x":0,"y":800}');
    const at = await session.act({}, { name: 'read_scroll' }, (page) => page.evaluate(() => window.scrollY));
    expect(at.value).toBeGreaterThan(4000);

    const keyed = await drive([
      call('browser_navigate', { url: `${site.base}/form` }),
      call('browser_type', { selector: '#name', text: 'Key' }),
      call('browser_press_key', { key: 'Enter' }),
      call('browser_wait', { selector: '#greeting' }),
      { text: 'x' },
    ]);
    expect(keyed.results.map((r) => r.isError)).toEqual([false, false, false, false]);
    expect(site.hits).toContain('/result?name=Key');
  });

  it('streams frames of the page as browser_stream events while an action runs', async () => {
    const { events } = await drive([call('browser_navigate', { url: `${site.base}/long` }), { text: 'ok' }]);
    const frames = events.filter((e): e is TandemEvent<'browser_stream'> => e.type === 'browser_stream');
    expect(frames.length).toBeGreaterThan(0);
    const jpeg = Buffer.from(frames[0]!.data, 'base64');
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(frames[0]).toMatchObject({ mediaType: 'image/jpeg', parentId: expect.any(String) });
  });

  it('shows the live page in the run viewer, at the address browser_get_stream_url returns', async () => {
    const model = new ScriptedModel([
      call('browser_navigate', { url: `${site.base}/form` }),
      call('browser_get_stream_url'),
      (request) => ({ text: lastResult(request) }),
    ]);
    const executor = new Executor({
      model,
      tools: browserTools(session),
      runtime: testRuntime(),
      safety: { guardrails: siteGuardrails() },
    });
    const run = executor.run('show me the page');
    viewer.track(run);
    const result = await run.result;
    const address = /http:\S+/.exec(result.output)?.[0];
    expect(address).toBe(`${viewerBase}/#run=${run.runId}`);
    const watcher = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await watcher.newPage();
      await page.goto(address!);
      const frame = page.locator('.tv-browser-frame');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,\/9j\//);
      expect(await frame.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      expect(await page.locator('.tv-browser-url').textContent()).toBe(`${site.base}/form`);
    } finally {
      await watcher.close();
    }
  });

  it('returns a screenshot as a PNG image part the model is sent', async () => {
    const { model, results } = await drive([
      call('browser_navigate', { url: `${site.base}/form` }),
      call('browser_screenshot'),
      { text: 'seen' },
    ]);
    expect(results[1]).toMatchObject({ isError: false, attachments: [{ mediaType: 'image/png' }] });
    const tool = model.requests[2]!.messages.at(-1);
    const part = tool?.role === 'tool' ? tool.content[0] : undefined;
    const image = part?.attachments?.[0];
    expect(image?.mediaType).toBe('image/png');
    const bytes = Buffer.from(String(image?.data), 'base64');
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.readUInt32BE(16)).toBe(1280); // the viewport's width, from the IHDR chunk
  });

  it('blocks a redirect to the metadata address and names the rule', async () => {
    const { results } = await drive([
      call('browser_navigate', { url: `${site.base}/redirect` }),
      { text: 'x' },
    ]);
    expect(results[0]?.isError).toBe(true);
    expect(results[0]?.output).toMatch(/blocked|refused/i);
    expect(results[0]?.output).toContain('169.254.169.254');
  });

  it('blocks a subresource and a WebSocket on another loopback port that is not allowlisted', async () => {
    const { results, events } = await drive([
      call('browser_navigate', { url: `${site.base}/foreign` }),
      call('browser_wait', { text: 'mixed' }),
      { text: 'x' },
    ]);
    expect(results[0]?.isError).toBe(false);
    const blocked = events.flatMap((e) => (e.type === 'browser_action' ? (e.blocked ?? []) : []));
    expect(blocked).toEqual(
      expect.arrayContaining([
        { url: `http://127.0.0.1:${forbidden.port}/pixel.png`, rule: 'url.private_address' },
        { url: `ws://127.0.0.1:${forbidden.port}/socket`, rule: 'url.private_address' },
      ]),
    );
    expect(forbidden.hits).toEqual([]);
  });

  it('saves a download into the downloads directory', async () => {
    const { results } = await drive([
      call('browser_navigate', { url: `${site.base}/files` }),
      call('browser_click', { selector: 'a' }),
      call('browser_wait', { text: 'report' }),
      { text: 'x' },
    ]);
    const saved = join(downloads, 'report.csv');
    expect(results.map((r) => r.isError)).toEqual([false, false, false]);
    // The download starts after the click answers: the file is awaited, as the next action would.
    await fileAppears(saved);
    expect(readFileSync(saved, 'utf8')).toBe('a,b\n1,2\n');
  });

  it('refuses file:, chrome: and data: navigation before the browser sees it', async () => {
    const urls = ['file:///etc/passwd', 'chrome://settings', 'data:text/html,<h1>hi</h1>'];
    const { results } = await drive([...urls.map((url) => call('browser_navigate', { url })), { text: 'x' }]);
    for (const r of results) {
      expect(r.isError).toBe(true);
      expect(r.output).toMatch(/scheme/);
    }
  });

  it('asks for approval before a click and clicks only once approved', async () => {
    site.hits.length = 0;
    const script: ScriptEntry[] = [
      call('browser_navigate', { url: `${site.base}/form` }),
      call('browser_click', { selector: 'button[type=submit]' }),
      { text: 'submitted' },
    ];
    const { executor, result } = await drive(script, { needsApproval: ['browser_click'] });
    expect(result.status).toBe('interrupted');
    expect(result.interruptions?.[0]).toMatchObject({ kind: 'approval', toolName: 'browser_click' });
    expect(site.hits.filter((h) => h.startsWith('/result'))).toEqual([]);
    const state = result.state!;
    state.approve(result.interruptions![0]!.id);
    const resumed = await executor.resume(state).result;
    expect(resumed.output).toBe('submitted');
    expect(site.hits).toContain('/result?name=');
  });

  it('is risky: an ApprovalGate at its default threshold asks before any browser action', async () => {
    const model = new ScriptedModel([
      call('browser_navigate', { url: `${site.base}/form?gate` }),
      { text: 'x' },
    ]);
    const approvals = new ApprovalGate({ guardrails: siteGuardrails() });
    const executor = new Executor({
      model,
      tools: browserTools(session),
      runtime: testRuntime(),
      safety: { approvals },
    });
    const result = await executor.run('open').result;
    expect(result.status).toBe('interrupted');
    expect(result.interruptions?.[0]).toMatchObject({ kind: 'approval', toolName: 'browser_navigate' });
    expect(site.hits).not.toContain('/form?gate');
  });

  it('fails typed, never hangs: a page that never loads, a dialog, a missing element, no viewer', async () => {
    const { results } = await drive([
      call('browser_navigate', { url: `${site.base}/never` }),
      call('browser_navigate', { url: `${site.base}/dialog` }),
      call('browser_click', { selector: 'button' }),
      call('browser_click', { selector: '#nothing-here' }),
      { text: 'x' },
    ]);
    expect(results[0]).toMatchObject({ isError: true, output: expect.stringMatching(/Timed out/) });
    expect(results[1]?.isError).toBe(false);
    expect(results[2]).toMatchObject({
      isError: true,
      output: expect.stringContaining('alert: "Are you sure?"'),
    });
    expect(results[3]).toMatchObject({ isError: true });
    const bare = new BrowserSession({ executablePath: CHROMIUM });
    expect(() => bare.streamUrl('run_1')).toThrow(BrowserError);
  }, 30_000);

  it('reports a crashed renderer as crashed and opens a fresh page for the next action', async () => {
    const crash = session.act({}, { name: 'crash' }, async (page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Page.crash');
    });
    await expect(crash).rejects.toMatchObject({ kind: 'crashed' });
    const { results } = await drive([call('browser_navigate', { url: `${site.base}/form` }), { text: 'x' }]);
    expect(results[0]?.isError).toBe(false);
  });

  it('drives a remote browser over CDP, checks its requests, and closes only its own context', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'tandem-browser-remote-'));
    const remote = spawn(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--remote-debugging-port=0',
        `--user-data-dir=${profile}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    try {
      const endpoint = await new Promise<string>((resolve, reject) => {
        let err = '';
        remote.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const ws = /DevTools listening on (ws:\S+)/.exec(err)?.[1];
          if (ws) resolve(ws);
        });
        remote.once('exit', () => reject(new Error(`the remote Chromium exited:\n${err}`)));
      });
      const own = new BrowserSession({
        cdpEndpoint: endpoint,
        network: { allowHosts: [`127.0.0.1:${site.port}`] },
      });
      const model = new ScriptedModel([
        call('browser_navigate', { url: `${site.base}/foreign` }),
        { text: 'x' },
      ]);
      const executor = new Executor({
        model,
        tools: browserTools(own),
        runtime: testRuntime(),
        safety: { guardrails: siteGuardrails() },
      });
      const run = executor.run('open');
      const blocked: string[] = [];
      run.on('browser_action', (e) => blocked.push(...(e.blocked ?? []).map((b) => b.url)));
      await run.result;
      await own.dispose();
      expect(blocked).toContain(`http://127.0.0.1:${forbidden.port}/pixel.png`);
      expect(forbidden.hits).toEqual([]);
      expect(remote.exitCode).toBe(null);
      expect(own.closed).toBe(true);
    } finally {
      remote.kill('SIGKILL');
      await gone(profile);
      rmSync(profile, { recursive: true, force: true });
    }
  }, 30_000);

  it('closes the browser when the run is aborted: no Chromium of the session is left', async () => {
    const controller = new AbortController();
    const own = new BrowserSession({
      executablePath: CHROMIUM,
      network: { allowHosts: [`127.0.0.1:${site.port}`] },
      signal: controller.signal,
    });
    const before = profilesOfChildren(process.pid);
    await own.start();
    const profile = profilesOfChildren(process.pid).find((dir) => !before.includes(dir));
    expect(profile).toBeDefined();
    const model = new ScriptedModel([call('browser_navigate', { url: `${site.base}/never` }), { text: 'x' }]);
    const executor = new Executor({
      model,
      tools: browserTools(own),
      runtime: testRuntime(),
      safety: { guardrails: siteGuardrails() },
    });
    const run = executor.run('open', {
      signal: controller.signal,
    });
    run.on('tool_call', () => controller.abort());
    const result = await run.result;
    expect(result.status).not.toBe('success');
    await gone(profile!);
    expect(own.closed).toBe(true);
  }, 30_000);

  for (const mode of ['kill', 'exit'] as const) {
    it(`leaves no Chromium after the host ${mode === 'kill' ? 'is killed with SIGKILL' : 'exits without disposing'}`, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', host, CHROMIUM, `${site.base}/form`, mode], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/ready .+\n/.test(output)) resolve();
        });
        child.once('exit', () => reject(new Error(`the host exited early:\n${output}`)));
      });
      const profile = /ready (\S+)/.exec(output)?.[1];
      expect(profile).toMatch(/playwright_chromiumdev_profile/);
      if (mode === 'kill') child.kill('SIGKILL');
      await exited;
      await gone(profile!);
    }, 30_000);
  }
});
