/**
 * Resilient by default: the README's Quick start, its code unchanged, run
 * against a loopback server speaking the OpenAI Chat Completions wire format
 * that answers the first request with a 429 (`Retry-After: 0`, so the one
 * wait is no wait) and every later one properly. The only harness around the
 * code: imports point at the sources, `fetch` to api.openai.com goes to the
 * loopback server, and one listener records `retry` events.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const ANSWER = '(2 + 3) × 2 = 10.';

/** The first ```ts block under the README's `## Quick start` heading, as scripts/consumers/quickstart.mjs reads it. */
function quickStart(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = (readme.split(/^## Quick start$/m)[1] ?? '').split(/^## /m)[0] ?? '';
  const block = /^```ts\n([\s\S]*?)^```/m.exec(section);
  if (!block?.[1]) throw new Error('README.md has no ```ts block under "## Quick start"');
  return block[1];
}

/** A Chat Completions reply: a call of `add` while the conversation has no tool result yet, then the answer. */
function reply(request: any): { type: string; body: string } {
  const called = request.messages.some((m: { role: string }) => m.role === 'tool');
  const call = { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } };
  const message =
    request.tools && !called
      ? { role: 'assistant', content: null, tool_calls: [call] }
      : { role: 'assistant', content: ANSWER };
  const finish = request.tools && !called ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 };
  const base = { id: 'chatcmpl-qs', created: 1, model: request.model };
  if (!request.stream) {
    const choices = [{ index: 0, message, finish_reason: finish }];
    return {
      type: 'application/json',
      body: JSON.stringify({ ...base, object: 'chat.completion', choices, usage }),
    };
  }
  const delta = finish === 'tool_calls' ? { ...message, tool_calls: [{ index: 0, ...call }] } : message;
  const chunks = [
    { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] },
    {
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: {}, finish_reason: finish }],
      usage,
    },
  ];
  return {
    type: 'text/event-stream',
    body: `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`,
  };
}

describe('the README Quick start', () => {
  let server: Server;
  let baseURL = '';
  let requests = 0;
  let dir = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (requests++ === 0) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
          res.end(
            JSON.stringify({
              error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
            }),
          );
          return;
        }
        const { type, body: out } = reply(JSON.parse(body));
        res.writeHead(200, { 'content-type': type });
        res.end(out);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    dir = mkdtempSync(join(tmpdir(), 'tandem-quick-start-'));
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((done) => server.close(() => done()));
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it('survives a 429 and answers, with one retry event and no extra code', async () => {
    const code = quickStart();
    const runLine = /^const run = orchestrator\.run\(.*\);$/m;
    expect(code).toMatch(runLine);
    const harnessed = code
      .replace(
        "from 'tandem-agents/openai'",
        `from '${pathToFileURL(join(ROOT, 'src/providers/openai/index.ts')).href}'`,
      )
      .replace("from 'tandem-agents'", `from '${pathToFileURL(join(ROOT, 'src/index.ts')).href}'`)
      .replace(runLine, (line) => `${line}\nrun.on('retry', (e) => globalThis.quickStartRetries.push(e));`);
    const file = join(dir, 'index.mts');
    writeFileSync(file, harnessed);

    const retries: Array<{ error: { kind: string }; delayMs: number }> = [];
    vi.stubGlobal('quickStartRetries', retries);
    vi.stubEnv('OPENAI_API_KEY', 'sk-loopback');
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string | URL | Request, init?: RequestInit) =>
      realFetch(String(url).replace('https://api.openai.com/v1', baseURL), init),
    );
    const printed: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));

    await import(/* @vite-ignore */ pathToFileURL(file).href);

    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ error: { kind: 'rate_limit' }, delayMs: 0 });
    expect(printed.some((args) => args[0] === 'success')).toBe(true);
    expect(printed.some((args) => args[0] === ANSWER)).toBe(true);
    expect(requests).toBeGreaterThan(1);
  });
});
