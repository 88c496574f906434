/**
 * Every example runs offline and exits 0, and the demo also runs against an
 * OpenAI-compatible server (a loopback one here) when OPENAI_BASE_URL is set.
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const offlineEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(OPENAI|ANTHROPIC|GEMINI|GOOGLE)_/.test(k)),
);

const examples = readdirSync(`${root}examples`).filter((f) => f.endsWith('.ts'));

describe('examples', () => {
  it.each(examples)('%s runs offline and exits 0', async (file) => {
    const { stdout } = await run(tsx, [`examples/${file}`], { cwd: root, env: offlineEnv, timeout: 60_000 });
    expect(stdout.length).toBeGreaterThan(0);
  });

  it('the demo prints the orchestration live and ends in success', async () => {
    const { stdout } = await run(tsx, ['examples/demo.ts'], { cwd: root, env: offlineEnv, timeout: 60_000 });
    const plain = stripVTControlCharacters(stdout);
    expect(plain).toContain('attempt 2 (enhanced)');
    expect(plain).toContain('checklist 3/3');
    expect(plain).toContain('done status=success');
  });
});

describe('demo on a provider', () => {
  let server: Server;
  let baseURL = '';
  const seen: any[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const request = JSON.parse(body);
        seen.push(request);
        const system = request.messages[0]?.role === 'system' ? String(request.messages[0].content) : '';
        const content = system.includes('needsPlan')
          ? '{"needsPlan": false, "reasoning": "one look-up is enough"}'
          : 'Lisbon, Porto and Braga total 970,000 people.';
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        if (!request.stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: 'c1',
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
            }),
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`${chunk({ role: 'assistant', content }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('uses the OpenAI-compatible server named by OPENAI_BASE_URL instead of the scripted models', async () => {
    const { stdout } = await run(tsx, ['examples/demo.ts'], {
      cwd: root,
      env: { ...offlineEnv, OPENAI_BASE_URL: baseURL, OPENAI_MODEL: 'local-model' },
      timeout: 60_000,
    });
    const plain = stripVTControlCharacters(stdout);
    expect(plain).toContain('tandem demo on openai:local-model');
    expect(plain).toContain('done status=success');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((r) => r.model === 'local-model')).toBe(true);
    expect(seen[0].messages[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('needsPlan'),
    });
  });
});
