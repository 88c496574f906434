import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, Guardrails, Orchestrator, reduceProgress, type TandemEvent } from '../../src/index.js';
import { initialProgress } from '../../src/state/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';

const EMAIL = 'jane.doe@example.com';

const lookup = defineTool({
  name: 'lookup_contact',
  description: 'Find a contact',
  parameters: z.object({ name: z.string() }),
  execute: () => `Jane Doe <${EMAIL}>`,
});

function run(executor: ScriptEntry[], guardrails?: Guardrails) {
  const runtime = testRuntime();
  const orchestrator = new Orchestrator({
    tools: [lookup],
    runtime,
    ...(guardrails ? { safety: { guardrails: guardrails } } : {}),
    models: { planner: new ScriptedModel([]), executor: new ScriptedModel(executor, { chunking: 'chars' }) },
    planning: { classify: 'heuristic' },
  });
  const started = orchestrator.run('Who do I contact?');
  const events: TandemEvent[] = [];
  started.on('*', (e) => events.push(e));
  return { result: started.result, events };
}

describe('a run with output guardrails streams only what they let through', () => {
  it('carries no redacted address in any event, token deltas and progress state included', async () => {
    const { result, events } = run(
      [
        {
          text: `Looking up ${EMAIL} first.`,
          toolCalls: [{ id: 'c1', name: 'lookup_contact', args: { name: 'Jane' } }],
        },
        { text: `Write to ${EMAIL} about it.` },
      ],
      new Guardrails(),
    );
    const done = await result;
    expect(done.output).toContain('[REDACTED_EMAIL]');
    expect(done.output).not.toContain(EMAIL);

    const tokens = events.filter((e): e is TandemEvent<'token'> => e.type === 'token');
    expect(tokens.map((e) => e.delta).join('')).toBe(done.output);
    // The tool's own output is not the answer: it is what the model read, not what it said.
    const said = events.filter((e) => e.type !== 'tool_result');
    expect(JSON.stringify(said)).not.toContain(EMAIL);
    const progress = events.reduce((state, e) => reduceProgress(state, e), initialProgress());
    expect(JSON.stringify(progress.streams)).not.toContain(EMAIL);
    expect(Object.values(progress.streams).map((s) => s.text)).toEqual([done.output]);
  });

  it('streams every delta as it comes when there are no output guardrails', async () => {
    const { result, events } = run([{ text: 'Hello there.' }], new Guardrails({ output: [] }));
    await result;
    const tokens = events.filter((e): e is TandemEvent<'token'> => e.type === 'token');
    expect(tokens.length).toBe('Hello there.'.length);
    expect(tokens.map((e) => e.delta).join('')).toBe('Hello there.');
  });
});
