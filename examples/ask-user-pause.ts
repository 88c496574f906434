/**
 * Questions to the user in a run that pauses to ask, offline: a scripted
 * model calls `ask_user` with options. Nobody waits on a bus: the run ends
 * `interrupted` with the question in `result.interruptions`; the "user"
 * picks an option on the state — as JSON, as a UI or another process would —
 * and the run resumes with the answer as the tool's result.
 *
 * Run: npx tsx examples/ask-user-pause.ts
 */

import { askUserTool, Executor, MemoryInterruptBus, PausedState } from 'tandem-agents';
import { ScriptedModel } from 'tandem-agents/testing';

const model = new ScriptedModel([
  { toolCalls: [{ name: 'ask_user', args: { question: 'Which plan?', options: ['monthly', 'yearly'] } }] },
  { text: 'You are on the yearly plan now.' },
]);

// The bus is where a live run would ask; a run that pauses to ask never puts the question there.
const executor = new Executor({
  model,
  tools: [askUserTool({ bus: new MemoryInterruptBus() })],
  safety: { pauseOnInterrupt: true },
});

const paused = await executor.run('Switch my subscription').result;
console.log(`status: ${paused.status}`);
const state = PausedState.from(JSON.parse(JSON.stringify(paused.state)));
for (const question of state.interruptions) {
  console.log(`question (${question.kind}): ${question.title} ${JSON.stringify(question.options)}`);
  state.answer(question.id, 'yearly');
}
const resumed = executor.resume(state);
resumed.on('tool_result', (e) => console.log(`tool_result ${e.name}: ${e.output}`));
const done = await resumed.result;
console.log(`answer: ${done.output} (${done.status})`);
