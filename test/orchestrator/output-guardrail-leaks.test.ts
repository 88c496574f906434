/**
 * With output guardrails, nothing the guardrails redact reaches an event:
 * not the answer's tokens (output-guardrail-stream.test.ts), nor a plan
 * step's output in `plan_step_completed`, the model's reasoning, or the
 * structured answer's `partial_object` previews. Checked over the whole
 * event log.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Guardrails, Orchestrator, type TandemEvent } from '../../src/index.js';
import type { ModelStreamPart } from '../../src/model/types.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { decideComplex, planJson } from './helpers.js';

const EMAIL = 'jane.doe@example.com';
const REDACTED = '[REDACTED_EMAIL]';

/** A streamed reply whose reasoning names the address across two deltas, then `text`. */
function thinking(text: string): ScriptEntry {
  const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0 };
  const stream: ModelStreamPart[] = [
    { type: 'reasoning-delta', delta: 'The contact is jane.doe@exa' },
    { type: 'reasoning-delta', delta: 'mple.com, I recall.' },
    ...Array.from(text, (delta) => ({ type: 'text-delta' as const, delta })),
    { type: 'finish', finishReason: 'stop', usage },
  ];
  return { stream };
}

function collect(orchestrator: Orchestrator<any>, task: string) {
  const run = orchestrator.run(task);
  const events: TandemEvent[] = [];
  run.on('*', (e) => events.push(e));
  return { result: run.result, events };
}

describe('output guardrails hold every streamed preview of the answer', () => {
  it("redacts a plan step's output and the reasoning of steps and finalizer in the event log", async () => {
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([
          decideComplex,
          { text: planJson([{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }]) },
        ]),
        executor: new ScriptedModel([thinking(`Found: write to ${EMAIL}.`), { text: 'Drafted the note.' }]),
        verifier: false,
        finalizer: new ScriptedModel([thinking(`Write to ${EMAIL} with the note.`)]),
      },
      planning: { classify: 'llm' },
      safety: { guardrails: new Guardrails() },
      runtime: testRuntime(),
    });
    const { result, events } = collect(orchestrator, 'Find the contact, then draft a note');
    const done = await result;
    expect(done.status).toBe('success');
    expect(done.output).toBe(`Write to ${REDACTED} with the note.`);

    expect(JSON.stringify(events)).not.toContain(EMAIL);
    expect(JSON.stringify(events)).not.toContain('jane.doe@exa');
    const completed = events.filter(
      (e): e is TandemEvent<'plan_step_completed'> => e.type === 'plan_step_completed',
    );
    expect(completed.map((e) => e.output)).toEqual([`Found: write to ${REDACTED}.`, 'Drafted the note.']);
    // The reasoning is not lost: checked, then released whole, one event per agent and step.
    const reasoning = events.filter((e): e is TandemEvent<'reasoning'> => e.type === 'reasoning');
    expect(reasoning.map((e) => [e.stepId, e.delta])).toEqual([
      ['s1', `The contact is ${REDACTED}, I recall.`],
      [undefined, `The contact is ${REDACTED}, I recall.`],
    ]);
    const tokens = events.filter((e): e is TandemEvent<'token'> => e.type === 'token');
    expect(tokens.map((e) => e.delta)).toEqual([done.output]);
  });

  it('holds partial objects and releases the checked object once', async () => {
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([]),
        executor: new ScriptedModel([{ text: JSON.stringify({ contact: EMAIL }) }], { chunking: 'chars' }),
      },
      planning: { classify: 'heuristic' },
      safety: { guardrails: new Guardrails() },
      output: z.object({ contact: z.string() }),
      runtime: testRuntime(),
    });
    const { result, events } = collect(orchestrator, 'Who is the contact?');
    const done = await result;
    expect(done.object).toEqual({ contact: REDACTED });
    expect(JSON.stringify(events)).not.toContain('jane.doe');
    const partials = events.filter((e): e is TandemEvent<'partial_object'> => e.type === 'partial_object');
    expect(partials.map((e) => e.object)).toEqual([{ contact: REDACTED }]);
  });

  it('streams reasoning and partial objects as they come without output guardrails', async () => {
    const orchestrator = new Orchestrator({
      models: { planner: new ScriptedModel([]), executor: new ScriptedModel([thinking('{"contact":"x"}')]) },
      planning: { classify: 'heuristic' },
      safety: { guardrails: new Guardrails({ output: [] }) },
      output: z.object({ contact: z.string() }),
      runtime: testRuntime(),
    });
    const { result, events } = collect(orchestrator, 'Who is the contact?');
    await result;
    expect(events.filter((e) => e.type === 'reasoning')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'partial_object').length).toBeGreaterThan(1);
  });
});
