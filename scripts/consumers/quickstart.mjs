/**
 * The README's Quick start, as a new user runs it: its code block saved as
 * `index.mjs` in a fresh `npm init -y` project (CommonJS by default) and run
 * with `node index.mjs`. The one change: `createOpenAI()` points at a loopback
 * OpenAI-compatible server, which rate-limits the first request (429,
 * `Retry-After: 0`: the run must retry by default), then calls the `add` tool
 * once and answers. Fails unless the run prints the tool call, its status and
 * the answer.
 *
 * Usage: node quickstart.mjs <path to README.md>
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { promisify } from 'node:util';

const ANSWER = '(2 + 3) × 2 = 10.';

/** The first ```ts block under the `## Quick start` heading. */
function quickStart(readme) {
  const section = readme.split(/^## Quick start$/m)[1] ?? '';
  const block = /^```ts\n([\s\S]*?)^```/m.exec(section.split(/^## /m)[0] ?? '');
  if (!block) throw new Error('README.md has no ```ts block under "## Quick start"');
  return block[1];
}

/** A Chat Completions reply: a call of `add` while the conversation has no tool result yet, then the answer. */
function reply(request) {
  const called = request.messages.some((m) => m.role === 'tool');
  const message =
    request.tools && !called
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
          ],
        }
      : { role: 'assistant', content: ANSWER };
  const finish = message.tool_calls ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 };
  const base = { id: 'chatcmpl-qs', created: 1, model: request.model };
  if (!request.stream) {
    return {
      type: 'application/json',
      body: JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    };
  }
  const delta = message.tool_calls
    ? { ...message, tool_calls: [{ index: 0, ...message.tool_calls[0] }] }
    : message;
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

const code = quickStart(readFileSync(process.argv[2], 'utf8'));
const swapped = code.replace(
  'createOpenAI()',
  'createOpenAI({ baseURL: process.env.QUICKSTART_BASE_URL, apiKey: "loopback" })',
);
if (swapped === code)
  throw new Error('the Quick start no longer calls createOpenAI(): update scripts/consumers/quickstart.mjs');
writeFileSync('index.mjs', swapped);
const type = JSON.parse(readFileSync('package.json', 'utf8')).type ?? 'commonjs';
if (type !== 'commonjs')
  throw new Error(`expected a fresh npm init -y project (type commonjs), got type ${type}`);

let requests = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (requests++ === 0) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }));
      return;
    }
    const { type, body: out } = reply(JSON.parse(body));
    res.writeHead(200, { 'content-type': type });
    res.end(out);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const env = { ...process.env, QUICKSTART_BASE_URL: `http://127.0.0.1:${server.address().port}/v1` };
  const { stdout } = await promisify(execFile)(process.execPath, ['index.mjs'], { env, timeout: 60_000 });
  console.log(stdout);
  for (const expected of ['add', 'success', ANSWER]) {
    if (!stdout.includes(expected)) throw new Error(`the Quick start printed no "${expected}"`);
  }
} finally {
  server.close();
}
