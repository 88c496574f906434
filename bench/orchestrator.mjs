// Orchestration overhead per plan step: a scripted planner (a plan of S
// independent steps), each step 2 tool turns and an answer on a zero-latency
// executor model, a scripted verifier (PASS) and finalizer. Beside it, the
// same 3 turns as one bare Executor run.
//   node bench/orchestrator.mjs --steps 10 --runs 100
import { defineTool, Executor, Orchestrator } from '../dist/index.js';
import { addTool, options, reply, report, timeRuns, zeroUsage } from './lib.mjs';

const opts = options({ steps: 10, warmup: 30, runs: 100, minWarmupMs: 1000 });

const add = addTool(defineTool);

const plan = JSON.stringify({
  title: 'Bench plan',
  summary: 'Independent additions',
  steps: Array.from({ length: opts.steps }, (_, i) => ({
    id: `s${i + 1}`,
    description: `Add the numbers of part ${i + 1}`,
    expectedOutput: 'a sum',
    tools: ['add'],
    expectedFiles: [],
    risk: 'safe',
    dependsOn: [],
  })),
});

const planner = { id: 'bench:planner', generate: async () => reply(plan) };
const verifier = { id: 'bench:verifier', generate: async () => reply('PASS: every step is done') };
const finalizer = { id: 'bench:finalizer', generate: async () => reply('All parts added.') };
let executorCalls = 0;
// Two tool turns, then the answer: counted from the step's own input.
const executorModel = {
  id: 'bench:executor',
  async generate(request) {
    executorCalls++;
    const messages = request.messages;
    let results = 0;
    for (let i = messages.length - 1; i >= 0 && messages[i].role !== 'user'; i--)
      if (messages[i].role === 'tool') results++;
    if (results < 2) {
      const call = {
        type: 'tool_call',
        id: `call_${results}`,
        name: 'add',
        arguments: `{"a":${results},"b":1}`,
      };
      return {
        message: { role: 'assistant', content: [call] },
        finishReason: 'tool_calls',
        usage: zeroUsage,
      };
    }
    return reply('2');
  },
};

const orchestrator = new Orchestrator({
  models: { planner, executor: executorModel, verifier, finalizer },
  tools: [add],
  planning: { classify: async () => 'complex' },
});

async function orchestrated() {
  const before = executorCalls;
  const result = await orchestrator.run('Add the numbers of every part').result;
  if (
    result.status !== 'success' ||
    result.steps.length !== opts.steps ||
    executorCalls - before !== 3 * opts.steps
  ) {
    throw new Error(
      `verification failed: ${result.status}, ${result.steps.length} steps, ${executorCalls - before} calls`,
    );
  }
}

const bare = new Executor({ model: executorModel, tools: [add] });
async function bareStep() {
  const result = await bare.run('Add the numbers of part 1').result;
  if (result.output !== '2') throw new Error(`verification failed: ${result.output}`);
}

const step = await timeRuns(orchestrated, { ...opts, per: opts.steps });
const alone = await timeRuns(bareStep, { ...opts, runs: opts.runs * 5 });
report(
  [
    {
      path: 'orchestrated plan step (2 tool turns + answer; planner, verifier, finalizer scripted)',
      floor: `bare Executor ${alone.median} µs`,
      value: `${step.median} µs per step`,
      target: '≤ 15 µs per step',
    },
  ],
  opts.json,
  `Orchestrator, ${opts.steps}-step plan, ${opts.runs} timed runs, medians (node ${process.version})`,
);
