/**
 * Every example runs as a child process against the BUILT package, as it
 * would in a user's project: `tandem-agents` and its subpaths resolve through
 * package.json `exports` to dist/ (tsx gets a tsconfig without the `paths`
 * that point the typechecker at src/). Each exits 0 and prints what it
 * promises; the demo also runs on an OpenAI-compatible loopback server.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, packageRoot as root } from '../package/built-package.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

const exec = promisify(execFile);
// A child process starts tsx and loads the package: slow on a busy 2-core machine, never a hang.
const CHILD_TIMEOUT_MS = 60_000;
const offlineEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|TAVILY)_|^(REDIS_URL|SEARXNG_URL)$/.test(k),
    ),
  ),
  TSX_TSCONFIG_PATH: fileURLToPath(new URL('tsconfig.runtime.json', import.meta.url)),
};

const examples = readdirSync(`${root}examples`)
  .filter((f) => f.endsWith('.ts'))
  .sort();

/** Examples that need a Redis server, run in their own block below. */
const onRedis = ['queue.ts', 'redis-sessions.ts'];

/** What each example must print (ANSI colours stripped); the Redis examples run on a real Redis. */
const expectedOutput: Record<string, string[]> = {
  'ag-ui.ts': [
    'run finished: {"type":"success","pendingToolCallIds":["call_1"]}',
    'approving: The agent wants to run refund',
    'tool result: refunded order 42',
    'assistant: Done: dark theme, and order 42 is refunded.',
  ],
  'approval-roundtrip.ts': [
    'tool_result run_shell: Tool blocked',
    'tool_result deploy: deployed checkout (v42)',
    'User denied execution of run_shell: Never delete a production namespace. The tool was not executed.',
    'answer: Checkout is deployed; I did not delete the namespace.',
  ],
  'ask-user-pause.ts': [
    'status: interrupted',
    'question (question): Which plan? ["monthly","yearly"]',
    'tool_result ask_user: User selected: yearly',
    'answer: You are on the yearly plan now. (success)',
  ],
  // Without /usr/bin/chromium the example prints that it was skipped; scripts/test-deps.sh installs it.
  'browser.ts': existsSync('/usr/bin/chromium')
    ? [
        'browser_screenshot: image/png',
        'refused by the network rules (url.private_address)',
        'answer: Signed up as Ada',
      ]
    : ['browser example skipped: no Chromium'],
  'chat.ts': [
    '[process 1] bot: Nice to meet you, Ada.',
    '[process 2] resuming "main": 2 earlier message(s)',
    '[process 2] bot: Your name is Ada.',
  ],
  'code-skill.ts': ["NameError: name 'numbrs' is not defined", 'mean = 3.875 (after 2 attempt(s))'],
  'custom-classifier.ts': ['custom classifier routed it: simple', '(planner calls: 0)'],
  'demo.ts': ['attempt 2 (enhanced)', 'checklist 3/3', 'done status=success'],
  'eval-demo.ts': [
    '✓ [10/10]',
    '| trajectory | 1 | 1 |',
    '| judge | 1 | 1 |',
    'dataset portuguese-cities: 10 cases, sha256 ',
    'report: ',
  ],
  'edit-and-search.ts': [
    '[apply_patch] Applied patch to 1 file (+5 -1): fetch.py',
    'rollback points: edit_1#2, edit_1#3',
    'README after rolling back turn 3: fetch() makes one call, no retries.',
  ],
  'long-conversation.ts': [
    'compression #2: summary',
    "done: 2 summariser call(s); the caller's history still holds all 241 messages.",
  ],
  'memory.ts': [
    'working memory: {"name":"Ada","diet":["peanut allergy"]}',
    '[memory] recall 2',
    'user: Hi, I am Ada and I have a peanut allergy.',
    'forgot ada: 1 store(s) cleared, notes now undefined',
  ],
  'mcp.ts': ['← Saved note #2', 'Your notebook has two notes: buy oat milk, and call the plumber.'],
  'mcp-features.ts': [
    '… build 1/4 module 1/4',
    '← release: released v2.1.0',
    '← summarise: summary by scripted:sampler',
    'Built, released v2.1.0, and summarised the changelog.',
  ],
  'openai-compatible.ts': ['openai-compatible: no server configured, nothing to do.'],
  'otel.ts': ['chat model', 'execute_tool read_doc', '17 spans; run status=success; cost $0.0073'],
  'pause-and-resume.ts': [
    '[process 1] stopped: interrupted',
    '[process 2] done: Refunded 12.50 EUR on order A-17. (success)',
  ],
  'plan-and-execute.ts': ['re-plan #1', 'status=success revisions=1'],
  'progress-ui.ts': ['completed (success)', 'checklist 3/3'],
  'queue.ts': ['→ lisbon dispatched to the queue', '[worker] population({"city":"Porto"})', 'status=success'],
  'redis-sessions.ts': [
    '[run 2] the model saw 3 messages; answered: You are Ada.',
    '#4 assistant: You are Ada.',
    'forgot user-42 in 3 stores; threads left: 0',
  ],
  'research.ts': ['[handoff] chat → research', '[research] Here is what I found.'],
  'resilience.ts': [
    'fallback scripted:primary → scripted:backup (rate_limit)',
    'compress for context_length',
  ],
  'sandbox-code-agent.ts': ['[execute_code] exit code 0', 'Sales summary: rows=3 total=300.00 median=99.50.'],
  'specialist-agents.ts': [
    '[routing] research',
    '[source] CRDTs: an overview <https://crdt.tech/>',
    '[research] # How CRDTs merge',
    '1. chat → writing: A short post on CRDTs (accepted)',
    '### Writing Outline',
  ],
  'skills-app-builder.ts': [
    'app running (reachable from here: true)',
    'GET /api/items → Middlemarch',
    'stopped; still running: 0',
  ],
  'skills-code-generation.ts': [
    '[model] saw the failure: AssertionError',
    'passed=true after 2 attempt(s): tests passed',
  ],
  'skills-data-analysis.ts': [
    'attempts: 2',
    'results: {"mean_price":10.4,"units_per_region":{"north":15,"south":12,"east":9}}',
    'summary: The mean price is 10.4',
  ],
  'skills-image-generation.ts': ['2 image file(s) from scripted:image, 2 inline'],
  'skills-slide-generation.ts': ['4 slides', 'a zip (PK)'],
  'skills-task-planning.ts': [
    '- deploy [risky]: Deploy billing v2 (after migrate)',
    'model calls: 1; nothing executed',
  ],
  'skills-web-research.ts': ['[source] Heat pumps explained', 'web_research: 2 citation(s)'],
  'structured-output.ts': ['partial: 2 difference(s) so far', 'Save button: matches spec = false'],
  'two-models.ts': ['total: 1308 tokens'],
  'ui-message-stream.ts': [
    'tool-refund: approval-requested {"order":"42"}',
    'tool-refund: output-available "refunded order 42"',
    'assistant: Done: order 42 is refunded.',
  ],
  'use-chat-page.ts': ['page: serves the useChat app', 'route: asks the page to approve refund'],
  'viewer.ts': ['tandem viewer: http://127.0.0.1:', 'answered: approve', 'run ended: success'],
};

/** Arguments an example needs to end by itself: the viewer otherwise serves until Ctrl-C. */
const exampleArgs: Record<string, string[]> = {
  'use-chat-page.ts': ['--once'],
  'viewer.ts': ['--once', '--delay', '0', '--port', '0'],
};

/** Runs a TypeScript file the way a user does (`node --import tsx`), from the repository root; stdout as printed. */
async function runExampleRaw(file: string, env: NodeJS.ProcessEnv = offlineEnv): Promise<string> {
  const { stdout } = await exec(
    process.execPath,
    ['--import', 'tsx', `examples/${file}`, ...(exampleArgs[file] ?? [])],
    {
      cwd: root,
      env,
      timeout: CHILD_TIMEOUT_MS,
    },
  );
  return stdout;
}

/** An example's stdout with ANSI colours stripped. */
async function runExample(file: string, env: NodeJS.ProcessEnv = offlineEnv): Promise<string> {
  return stripVTControlCharacters(await runExampleRaw(file, env));
}

/** The environment with no colour preference: the printer decides by whether stdout is a terminal. */
const { FORCE_COLOR: _force, NO_COLOR: _no, ...noColorPreference } = offlineEnv;

beforeAll(assertBuilt);

describe('examples', () => {
  it('every example in examples/ has its expected output listed in this test', () => {
    expect(Object.keys(expectedOutput).sort()).toEqual(examples);
  });

  it('resolve tandem-agents and its subpaths to dist/, as an installed package does', async () => {
    const script =
      "for (const s of ['tandem-agents', 'tandem-agents/testing', 'tandem-agents/openai']) console.log(import.meta.resolve(s))";
    const { stdout } = await exec(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: root,
        env: offlineEnv,
      },
    );
    expect(stdout.trim().split('\n')).toEqual([
      `file://${root}dist/index.js`,
      `file://${root}dist/testing/index.js`,
      `file://${root}dist/openai/index.js`,
    ]);
  });

  it.concurrent.each(examples.filter((f) => !onRedis.includes(f)))(
    '%s runs offline on the built package, exits 0 and prints its expected output',
    async (file) => {
      const stdout = await runExample(file);
      for (const line of expectedOutput[file] ?? []) expect(stdout).toContain(line);
    },
    CHILD_TIMEOUT_MS,
  );
});

describe('the demo printer', () => {
  it(
    'prints plain text when piped, and the scripted models report non-zero token usage',
    async () => {
      const stdout = await runExampleRaw('demo.ts', noColorPreference);
      expect(stdout).not.toContain('\x1b[');
      const tokens = /tokens in\/out=(\d+)\/(\d+)/.exec(stdout);
      expect(tokens).not.toBeNull();
      expect(Number(tokens![1])).toBeGreaterThan(0);
      expect(Number(tokens![2])).toBeGreaterThan(0);
    },
    CHILD_TIMEOUT_MS,
  );

  it(
    'prints colours when piped with FORCE_COLOR=1, none with NO_COLOR',
    async () => {
      const [forced, none] = await Promise.all([
        runExampleRaw('demo.ts', { ...noColorPreference, FORCE_COLOR: '1' }),
        runExampleRaw('demo.ts', { ...noColorPreference, NO_COLOR: '1' }),
      ]);
      expect(forced).toContain('\x1b[1mdone\x1b[0m');
      expect(none).not.toContain('\x1b[');
    },
    CHILD_TIMEOUT_MS,
  );
});

describe('the Redis examples on a real Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.stop());

  it(
    'queue.ts dispatches both steps to a worker through BullMQ and succeeds',
    async () => {
      const stdout = await runExample('queue.ts', { ...offlineEnv, REDIS_URL: redis.url });
      for (const line of expectedOutput['queue.ts'] ?? []) expect(stdout).toContain(line);
    },
    CHILD_TIMEOUT_MS,
  );

  it(
    'redis-sessions.ts continues a thread across two executors and forgets the user',
    async () => {
      const stdout = await runExample('redis-sessions.ts', { ...offlineEnv, REDIS_URL: redis.url });
      for (const line of expectedOutput['redis-sessions.ts'] ?? []) expect(stdout).toContain(line);
    },
    CHILD_TIMEOUT_MS,
  );
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

  it(
    'uses the OpenAI-compatible server named by OPENAI_BASE_URL instead of the scripted models',
    async () => {
      const stdout = await runExample('demo.ts', {
        ...offlineEnv,
        OPENAI_BASE_URL: baseURL,
        OPENAI_MODEL: 'local-model',
      });
      expect(stdout).toContain('tandem demo on openai:local-model');
      expect(stdout).toContain('done status=success');
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.every((r) => r.model === 'local-model')).toBe(true);
      expect(seen[0].messages[0]).toMatchObject({
        role: 'system',
        content: expect.stringContaining('needsPlan'),
      });
    },
    CHILD_TIMEOUT_MS,
  );
});
