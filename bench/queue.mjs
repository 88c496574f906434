// BullMQ dispatch overhead per plan step: the same plan of independent
// one-turn steps run in process and through `queueStepRunner` to 4 step
// workers, 4 steps at once. Overhead per step = the extra wall time × 4 /
// steps: the latency the queue adds to each step. The workers run in a
// process of their own, as deployed (`--inline 1` runs them in this process,
// whose one thread then also pays for them). The floor is plain BullMQ on the
// same machine: the same jobs (a step job of the plan each) to as many plain
// workers that do nothing, awaited through QueueEvents. Needs a
// `redis-server` binary (REDIS_SERVER overrides); started on a free port.
// Also counts this process's warnings while 12, 40 and 100 steps are
// dispatched at once (MaxListenersExceededWarning).
//   node bench/queue.mjs --steps 32 --runs 15 [--inline 1]
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Orchestrator } from '../dist/index.js';
import { queueStepRunner, startStepWorker } from '../dist/queue/index.js';
import { options, reply, report, stats } from './lib.mjs';

const WORKERS_ROLE = 'TANDEM_BENCH_QUEUE_WORKERS';
const queueName = 'bench-steps';
const plainQueueName = 'bench-plain';

const planOf = (steps) => ({
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

function orchestrator(steps, stepRunner, stepConcurrency) {
  const plan = JSON.stringify(planOf(steps));
  return new Orchestrator({
    models: {
      planner: { id: 'bench:planner', generate: async () => reply(plan) },
      executor: { id: 'bench:executor', generate: async () => reply('done') },
      verifier: false,
      finalizer: { id: 'bench:finalizer', generate: async () => reply('All done.') },
    },
    planning: { classify: async () => 'complex' },
    limits: { stepConcurrency },
    stepRunner,
  });
}

/** `count` step workers and `count` plain BullMQ workers (the floor's, doing nothing) on `url`. */
async function startWorkers(url, count) {
  const local = orchestrator(1, undefined, 1);
  const workers = [];
  const plain = [];
  for (let i = 0; i < count; i++) {
    workers.push(await startStepWorker({ connection: url, queueName, orchestrator: local }));
    const connection = new Redis(url, { maxRetriesPerRequest: null });
    plain.push(
      new Worker(plainQueueName, async () => ({ status: 'completed', output: 'done', attempts: 1 }), {
        connection,
      }),
    );
  }
  await Promise.all(plain.map((worker) => worker.waitUntilReady()));
  return {
    async close() {
      for (const worker of workers) await worker.close();
      for (const worker of plain) {
        await worker.close();
        worker.opts.connection.disconnect();
      }
    },
  };
}

/** The workers in a child process running this file; resolves once they listen. */
function spawnWorkers(url, count) {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, [WORKERS_ROLE]: `${url} ${count}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const failed = (code) => reject(new Error(`bench workers exited with ${code}`));
    child.once('exit', failed);
    child.stdout.on('data', (chunk) => {
      if (!String(chunk).includes('ready')) return;
      child.off('exit', failed);
      resolve({ close: () => new Promise((done) => child.once('exit', done).kill('SIGTERM')) });
    });
  });
}

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

/** ms of one run of `o`, checked. */
async function timedRun(o, steps) {
  const start = performance.now();
  const result = await o.run('Do every part').result;
  const ms = performance.now() - start;
  if (
    result.status !== 'success' ||
    result.steps.some((s) => s.status !== 'completed') ||
    result.steps.length !== steps
  ) {
    throw new Error(`verification failed: ${result.status}`);
  }
  return ms;
}

/**
 * Plain BullMQ dispatching `steps` jobs, each carrying a step job of a
 * `steps`-step plan, `width` at once, each awaited through QueueEvents
 * (reading from the stream's last entry, so no end is missed).
 */
async function plainDispatcher(url, steps, width) {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(plainQueueName, { connection });
  const [last] = await connection.xrevrange(queue.toKey('events'), '+', '-', 'COUNT', 1);
  const events = new QueueEvents(plainQueueName, { connection, lastEventId: last?.[0] ?? '0-0' });
  await events.waitUntilReady();
  const waiting = new Map();
  events.on('completed', ({ jobId }) => waiting.get(jobId)?.());
  const plan = planOf(steps);
  const todo = plan.steps.map((s) => `- [ ] ${s.id}: ${s.description}`).join('\n');
  let id = 0;
  const dispatch = async (step) => {
    const jobId = `plain-${id++}`;
    const done = new Promise((resolve) => waiting.set(jobId, resolve));
    const data = { runId: 'run_plain', plan, step, findings: [], todo, attempts: 0 };
    await queue.add('step', data, { jobId, removeOnComplete: { age: 3_600 } });
    await done;
    waiting.delete(jobId);
  };
  return {
    async run() {
      const start = performance.now();
      let next = 0;
      const lane = async () => {
        while (next < steps) await dispatch(plan.steps[next++]);
      };
      await Promise.all(Array.from({ length: width }, lane));
      return performance.now() - start;
    },
    async close() {
      await events.close();
      await queue.close();
      connection.disconnect();
    },
  };
}

/** This process's warnings while every step of a `width`-step plan is dispatched at once. */
async function warningsAt(runner, width) {
  const warnings = [];
  const onWarning = (warning) => warnings.push(warning.name);
  process.on('warning', onWarning);
  await timedRun(orchestrator(width, runner, width), width);
  // Warnings are emitted on a later tick.
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.off('warning', onWarning);
  return warnings.length;
}

async function main() {
  const opts = options({ steps: 32, runs: 15, warmup: 3, workers: 4, inline: 0 });
  const redis = await startRedis();
  const runner = queueStepRunner({ connection: redis.url, queueName });
  const workers = opts.inline
    ? await startWorkers(redis.url, opts.workers)
    : await spawnWorkers(redis.url, opts.workers);
  const plain = await plainDispatcher(redis.url, opts.steps, opts.workers);
  try {
    const local = orchestrator(opts.steps, undefined, opts.workers);
    const queued = orchestrator(opts.steps, runner, opts.workers);
    for (let i = 0; i < opts.warmup; i++) {
      await timedRun(queued, opts.steps);
      await timedRun(local, opts.steps);
      await plain.run();
    }
    const q = [];
    const l = [];
    const p = [];
    let cpu = 0;
    // Alternating, so drift on a shared machine hits all three alike.
    for (let i = 0; i < opts.runs; i++) {
      const before = process.cpuUsage();
      q.push(await timedRun(queued, opts.steps));
      const used = process.cpuUsage(before);
      cpu += used.user + used.system;
      l.push(await timedRun(local, opts.steps));
      p.push(await plain.run());
    }
    const perStep = (ms) => (ms * opts.workers) / opts.steps;
    const overhead = perStep(stats(q).median - stats(l).median);
    const floor = perStep(stats(p).median);
    const dispatcherCpu = Math.round(cpu / opts.runs / opts.steps);
    const warnings = [];
    for (const width of [12, 40, 100]) warnings.push(await warningsAt(runner, width));
    report(
      [
        {
          path: `BullMQ dispatch overhead per step (${opts.workers} workers)`,
          floor: `plain BullMQ ${floor.toFixed(2)} ms; in process ${Math.round((stats(l).median / opts.steps) * 1000)} µs/step`,
          value: `${overhead.toFixed(2)} ms (plain + ${(overhead - floor).toFixed(2)}; dispatcher CPU ${dispatcherCpu} µs/step); warnings at 12/40/100 steps: ${warnings.join('/')}`,
          target: '≤ 1 ms',
        },
      ],
      opts.json,
      `queueStepRunner, ${opts.steps} one-turn steps, ${opts.workers} at once, workers ${opts.inline ? 'in this process' : 'in another process'}, ${opts.runs} timed runs, medians (node ${process.version})`,
    );
  } finally {
    await plain.close();
    await workers.close();
    await runner.close();
    redis.stop();
  }
}

if (process.env[WORKERS_ROLE]) {
  const [url, count] = process.env[WORKERS_ROLE].split(' ');
  const workers = await startWorkers(url, Number(count));
  process.once('SIGTERM', () => void workers.close().then(() => process.exit(0)));
  process.stdout.write('ready\n');
} else {
  await main();
}
