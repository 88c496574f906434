/**
 * Browser automation, offline: a scripted model drives a real headless
 * Chromium (`tandem-agents/browser`, optional peer `playwright-core`) on a
 * page served from 127.0.0.1 — it reads the page snapshot, fills the form by
 * element refs, submits it, reads the result, and takes a screenshot. A
 * redirect to the cloud metadata address is refused by the network rules.
 * Without Chromium it says so and exits.
 *
 *   npx tsx examples/browser.ts
 *   CHROMIUM_PATH=/path/to/chrome npx tsx examples/browser.ts
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Executor, Guardrails, type ModelRequest, toolArgsGuardrail } from 'tandem-agents';
import { BrowserSession, browserTools } from 'tandem-agents/browser';
import { ScriptedModel } from 'tandem-agents/testing';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(
    `browser example skipped: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
  process.exit(0);
}

// The site: a form, the page it posts to, and a redirect to the metadata address.
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://site');
  res.setHeader('content-type', 'text/html');
  if (url.pathname === '/result')
    res.end(`<title>Done</title><p>Welcome, ${url.searchParams.get('name')}!</p>`);
  else if (url.pathname === '/metadata')
    res.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end();
  else
    res.end(`<title>Sign up</title><form action="/result"><label>Name <input name="name"></label>
      <button>Join</button></form>`);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const site = `127.0.0.1:${(server.address() as AddressInfo).port}`;

/** The last tool result the model was sent, and the ref of the snapshot line naming `label`. */
const lastResult = (request: ModelRequest) => {
  const last = request.messages.at(-1);
  return last?.role === 'tool' ? String(last.content[0]?.content) : '';
};
const refOf = (request: ModelRequest, label: string) =>
  /\[ref=(\w+)\]/.exec(
    lastResult(request)
      .split('\n')
      .find((line) => line.includes(label)) ?? '',
  )?.[1] ?? '';

const model = new ScriptedModel([
  { toolCalls: [{ name: 'browser_navigate', args: { url: `http://${site}/` } }] },
  { toolCalls: [{ name: 'browser_snapshot', args: {} }] },
  (request) => ({
    toolCalls: [
      { name: 'browser_type', args: { ref: refOf(request, 'textbox'), text: 'Ada', submit: true } },
    ],
  }),
  { toolCalls: [{ name: 'browser_wait', args: { text: 'Welcome' } }] },
  { toolCalls: [{ name: 'browser_screenshot', args: {} }] },
  { toolCalls: [{ name: 'browser_navigate', args: { url: `http://${site}/metadata` } }] },
  { text: 'Signed up as Ada; the metadata redirect was refused.' },
]);

// The local site is allowlisted twice: for the browser's network rules and the executor's argument scan.
const browser = new BrowserSession({ executablePath: chromium, network: { allowHosts: [site] } });
const guardrails = new Guardrails({ tool: [toolArgsGuardrail({ url: { allowHosts: [site] } })] });
const executor = new Executor({ model, tools: browserTools(browser), safety: { guardrails } });
try {
  const run = executor.run('Sign up as Ada on the local site.');
  run.on('browser_action', (e) =>
    console.log(`browser_action ${e.action} ${e.ok ? 'ok' : 'failed'} ${e.url}`),
  );
  run.on('tool_result', (e) => {
    if (e.attachments?.length) console.log(`${e.name}: ${e.attachments[0]?.mediaType}`);
    else if (e.isError) console.log(`${e.name} error: ${e.output.split('\n')[0]}`);
  });
  const result = await run.result;
  console.log(`answer: ${result.output}`);
} finally {
  await browser.dispose();
  server.close();
}
