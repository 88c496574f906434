/**
 * Human approval round trip, offline: a scripted model asks to run three
 * tools that need approval. The guardrails refuse a destructive command
 * before anyone is asked; the deploy and the namespace deletion stop the
 * run (status `interrupted`); the "user" reads the state as JSON, as a UI or
 * another process would, approves the deploy, rejects the deletion with a
 * reason, and the run resumes after each answer.
 *
 * Run: npx tsx examples/approval-roundtrip.ts
 */

import { defineTool, Executor, type ExecutorResult, PausedState, type Run } from 'tandem-agents';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploy a service to production',
  parameters: z.object({ service: z.string() }),
  needsApproval: true,
  execute: ({ service }) => `deployed ${service} (v42)`,
});

const runShell = defineTool({
  name: 'run_shell',
  description: 'Run a shell command',
  parameters: z.object({ command: z.string() }),
  needsApproval: true,
  execute: ({ command }) => `ran: ${command}`,
});

const model = new ScriptedModel([
  { toolCalls: [{ name: 'run_shell', args: { command: 'rm -rf --no-preserve-root /' } }] },
  { toolCalls: [{ name: 'deploy', args: { service: 'checkout' } }] },
  { toolCalls: [{ name: 'run_shell', args: { command: 'kubectl delete ns checkout' } }] },
  { text: 'Checkout is deployed; I did not delete the namespace.' },
]);

// `needsApproval` is all the configuration: with no interrupt bus to ask on, such a call stops the run.
// The default tool guardrails scan every call first.
const executor = new Executor({ model, tools: [deploy, runShell] });

/** Prints what a run (or a resumed run) does. */
function watch(run: Run<ExecutorResult>): Run<ExecutorResult> {
  run.on('guardrail', (e) => console.log(`guardrail: ${e.rule} blocked=${e.blocked} — ${e.reason}`));
  run.on('interrupt', (e) => console.log(`interrupt: ${e.interrupt.id} ${e.interrupt.title}`));
  run.on('tool_result', (e) => console.log(`tool_result ${e.name}: ${e.output}`));
  return run;
}

let result = await watch(executor.run('Deploy checkout, then clean up.')).result;
while (result.status === 'interrupted' && result.state) {
  console.log(`status: ${result.status}`);
  // The state goes to the user as JSON, as it would to a UI or another process.
  const state = PausedState.from(JSON.parse(JSON.stringify(result.state)));
  for (const call of state.interruptions) {
    const approve = call.toolName === 'deploy';
    console.log(`  user: ${call.title} ${JSON.stringify(call.args)} → ${approve ? 'approve' : 'reject'}`);
    if (approve) state.approve(call.id);
    else state.reject(call.id, 'Never delete a production namespace');
  }
  result = await watch(executor.resume(state)).result;
}
console.log(`\nanswer: ${result.output}`);
