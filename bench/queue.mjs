// BullMQ dispatch overhead per plan step: the same plan of independent
// one-turn steps run in process and through `queueStepRunner` to 4 step
// workers (in this process), 4 steps at once. Overhead per step = the extra
// wall time × 4 / steps: the latency the queue adds to each step. Needs a
// `redis-server` binary (REDIS_SERVER overrides); started on a free port.
// Also counts the process warnings of a 12-step-wide dispatch
// (MaxListenersExceededWarning).
//   node bench/queue.mjs --steps 32 --runs 15
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Orchestrator } from '../dist/index.js';
import { queueStepRunner, startStepWorker } from '../dist/queue/index.js';
import { options, report, stats, zeroUsage } from './lib.mjs';

const opts = options({ steps: 32, runs: 15, warmup: 3, workers: 4 });

const warnings = [];
process.on('warning', (warning) => warnings.push(warning.name));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startRedis() {
  const port = await freePort();
  const child = spawn(
    process.env.REDIS_SERVER ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

const reply = (text) => ({
  message: { role: 'assistant', content: [{ type: 'text', text }] },
  finishReason: 'stop',
  usage: zeroUsage,
});
const planOf = (steps) =>
  JSON.stringify({
    title: 'Bench plan',
    summary: 'Independent steps',
    steps: Array.from({ length: steps }, (_, i) => ({
      id: `s${i + 1}`,
      description: `Part ${i + 1}`,
      expectedOutput: 'done',
      tools: [],
      expectedFiles: [],
      risk: 'safe',
      dependsOn: [],
    })),
  });

function orchestrator(steps, stepRunner, stepConcurrency = opts.workers) {
  const plan = planOf(steps);
  return new Orchestrator({
    planner: { id: 'bench:planner', generate: async () => reply(plan) },
    executor: { id: 'bench:executor', generate: async () => reply('done') },
    verifier: false,
    finalizer: { id: 'bench:finalizer', generate: async () => reply('All done.') },
    classify: async () => 'complex',
    stepConcurrency,
    stepRunner,
  });
}

async function runs(o, steps, count) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await o.run('Do every part').result;
    samples.push(performance.now() - start);
    if (
      result.status !== 'success' ||
      result.steps.some((s) => s.status !== 'completed') ||
      result.steps.length !== steps
    ) {
      throw new Error(`verification failed: ${result.status}`);
    }
  }
  return stats(samples).median;
}

const redis = await startRedis();
const queueName = 'bench-steps';
const runner = queueStepRunner({ connection: redis.url, queueName });
const local = orchestrator(opts.steps);
const workers = [];
for (let i = 0; i < opts.workers; i++) {
  workers.push(await startStepWorker({ connection: redis.url, queueName, orchestrator: local }));
}
try {
  const queued = orchestrator(opts.steps, runner);
  await runs(queued, opts.steps, opts.warmup);
  await runs(local, opts.steps, opts.warmup);
  const q = [];
  const l = [];
  // Alternating, so drift on a shared machine hits both alike.
  for (let i = 0; i < opts.runs; i++) {
    q.push(await runs(queued, opts.steps, 1));
    l.push(await runs(local, opts.steps, 1));
  }
  const overhead = ((stats(q).median - stats(l).median) * opts.workers) / opts.steps;
  warnings.length = 0;
  const wide = orchestrator(12, runner, 12);
  await runs(wide, 12, 1);
  await new Promise((resolve) => setTimeout(resolve, 50));
  report(
    [
      {
        path: `BullMQ dispatch overhead per step (${opts.workers} workers)`,
        floor: `in process ${Math.round((stats(l).median / opts.steps) * 1000)} µs/step`,
        value: `${overhead.toFixed(2)} ms; ${warnings.length} warnings at 12 steps`,
        target: '≤ 1 ms',
      },
    ],
    opts.json,
    `queueStepRunner, ${opts.steps} one-turn steps, ${opts.workers} at once, ${opts.runs} timed runs, medians (node ${process.version})`,
  );
} finally {
  for (const worker of workers) await worker.close();
  await runner.close();
  redis.stop();
}
