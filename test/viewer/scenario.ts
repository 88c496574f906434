/**
 * The run the browser tests watch: the real Orchestrator on scripted models
 * and a fake clock. A three-step plan — fetch a report (a tool the test holds
 * open, whose output carries an XSS payload and is long enough to be cut),
 * deploy (a risky tool that asks for approval when `approvals` is on),
 * summarise — then verification and a streamed final answer.
 */
import { z } from 'zod';
import {
  ApprovalGate,
  defineTool,
  type InterruptBus,
  type MemoryCheckpointStore,
  Orchestrator,
  type Runtime,
} from '../../src/index.js';
import { type FakeClock, type ScriptEntry, ScriptedModel } from '../../src/testing/index.js';

export const XSS = '<img src=x onerror=alert(1)>';
export const TASK = 'Fetch the Q3 report, deploy checkout, then summarise';
export const ANSWER = 'The Q3 report is in, checkout is deployed, and the summary is written.';

/** A promise the test settles by hand. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const PLAN = {
  title: 'Ship the Q3 update',
  summary: 'Read the report, deploy, then write it up.',
  steps: [
    { id: 'fetch', description: 'Fetch the Q3 report', tools: ['fetch_report'], dependsOn: [] },
    { id: 'deploy', description: 'Deploy the checkout service', tools: ['deploy'], dependsOn: ['fetch'] },
    { id: 'summary', description: 'Summarise what was done', tools: [], dependsOn: ['fetch', 'deploy'] },
  ],
};

/** A scripted reply after `ms` of fake time, with token usage. */
function after(clock: FakeClock, ms: number, step: Exclude<ScriptEntry, Function>): ScriptEntry {
  return async () => {
    await clock.advance(ms);
    return { usage: { inputTokens: 400, outputTokens: 60 }, ...step } as Exclude<ScriptEntry, Function>;
  };
}

/** An orchestrator for the scenario; `held` keeps the report tool running until opened. */
export function scenario(options: {
  runtime: Runtime & { clock: FakeClock };
  held: Gate;
  bus?: InterruptBus;
  checkpoints?: MemoryCheckpointStore;
}): Orchestrator {
  const { clock } = options.runtime;
  const fetchReport = defineTool({
    name: 'fetch_report',
    description: 'Fetch a report by name',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }) => {
      await options.held.promise;
      await clock.advance(1_200);
      return `Report ${name}: revenue up 12%. ${XSS}\n${'Regional detail. '.repeat(120)}`;
    },
  });
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploy a service to production',
    parameters: z.object({ service: z.string() }),
    risk: 'risky',
    execute: async ({ service }) => {
      await clock.advance(900);
      return `deployed ${service} (v42)`;
    },
  });
  const planner = new ScriptedModel(
    [
      after(clock, 300, { text: '{"needsPlan": true, "reasoning": "Three dependent actions."}' }),
      after(clock, 700, { text: JSON.stringify(PLAN) }),
    ],
    { id: 'scripted:planner' },
  );
  const executor = new ScriptedModel(
    [
      after(clock, 400, { toolCalls: [{ name: 'fetch_report', args: { name: 'q3' } }] }),
      after(clock, 300, { text: 'Fetched the Q3 report: revenue up 12%.' }),
      after(clock, 400, { toolCalls: [{ name: 'deploy', args: { service: 'checkout' } }] }),
      after(clock, 300, { text: 'Deployed checkout (v42).' }),
      after(clock, 500, { text: 'Summary: revenue up 12%, checkout v42 live.' }),
    ],
    { id: 'scripted:executor' },
  );
  const verifier = new ScriptedModel([after(clock, 200, { text: 'PASS: every step is done.' })], {
    id: 'scripted:verifier',
  });
  const finalizer = new ScriptedModel([after(clock, 600, { text: ANSWER })], { id: 'scripted:finalizer' });
  return new Orchestrator({
    models: { planner, executor, verifier, finalizer },
    tools: [fetchReport, deploy],
    planning: { classify: 'llm' },
    runtime: options.runtime,
    safety: {
      approvals: options.bus
        ? new ApprovalGate({ bus: options.bus, threshold: 'risky', runtime: options.runtime })
        : undefined,
    },
    checkpoints: options.checkpoints && { store: options.checkpoints },
  });
}
