/**
 * Human approval round trip, offline: a scripted model asks to run three
 * tools; the guardrails refuse a destructive command before anyone is asked,
 * a risky deploy pauses the run until a second "user" in this process
 * approves it through the InterruptBus, and a risky shell call is denied.
 *
 * Run: npx tsx examples/approval-roundtrip.ts
 */

import {
  ApprovalGate,
  defineTool,
  Executor,
  Guardrails,
  type InterruptBus,
  type InterruptRequest,
  MemoryInterruptBus,
} from 'tandem-agents';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploy a service to production',
  risk: 'risky',
  parameters: z.object({ service: z.string() }),
  execute: ({ service }) => `deployed ${service} (v42)`,
});

const runShell = defineTool({
  name: 'run_shell',
  description: 'Run a shell command',
  risk: 'risky',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => `ran: ${command}`,
});

const model = new ScriptedModel([
  { toolCalls: [{ name: 'run_shell', args: { command: 'rm -rf --no-preserve-root /' } }] },
  { toolCalls: [{ name: 'deploy', args: { service: 'checkout' } }] },
  { toolCalls: [{ name: 'run_shell', args: { command: 'kubectl delete ns checkout' } }] },
  { text: 'Checkout is deployed; I did not delete the namespace.' },
]);

/** The "user": watches the bus for pending questions and answers them, as a UI backend would. */
function startUser(bus: InterruptBus, runId: () => string | undefined): () => void {
  const answered = new Set<string>();
  const timer = setInterval(async () => {
    const id = runId();
    if (!id) return;
    for (const request of await bus.pending(id)) {
      if (answered.has(request.id)) continue;
      answered.add(request.id);
      const action = decide(request);
      console.log(`  user: ${request.title} ${JSON.stringify(request.args)} → ${action}`);
      await bus.respond(request.id, { action });
    }
  }, 20);
  return () => clearInterval(timer);
}

function decide(request: InterruptRequest): string {
  return request.toolName === 'deploy' ? 'approve' : 'deny';
}

const bus = new MemoryInterruptBus();
const approvals = new ApprovalGate({ bus, guardrails: new Guardrails(), threshold: 'risky' });
const executor = new Executor({ model, tools: [deploy, runShell], gate: approvals.gate });

let currentRun: string | undefined;
const stopUser = startUser(bus, () => currentRun);
const run = executor.run('Deploy checkout, then clean up.');
run.on('run_started', (e) => {
  currentRun = e.runId;
});
run.on('guardrail', (e) => console.log(`guardrail: ${e.rule} blocked=${e.blocked} — ${e.reason}`));
run.on('interrupt', (e) =>
  console.log(
    `interrupt: ${e.interrupt.id} ${e.interrupt.title} (default ${e.interrupt.defaultAction} after ${e.interrupt.timeoutMs / 1000} s)`,
  ),
);
run.on('interrupt_response', (e) =>
  console.log(`interrupt_response: ${e.action}${e.timedOut ? ' (timed out)' : ''}`),
);
run.on('tool_result', (e) => console.log(`tool_result ${e.name}: ${e.output}`));

try {
  const result = await run.result;
  console.log(`\nanswer: ${result.output}`);
} finally {
  stopUser();
}
