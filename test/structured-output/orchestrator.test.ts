/**
 * An Orchestrator run with an output schema: a simple run's executor makes
 * the object; a planned run's finalized answer is formatted into it; a saved
 * run that completed gives it back without a call.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { Orchestrator } from '../../src/agents/index.js';
import type { TandemEvent } from '../../src/core/events.js';
import { textOf } from '../../src/core/messages.js';
import { Guardrails } from '../../src/safety/guardrails/guardrails.js';
import { MemoryCheckpointStore } from '../../src/state/checkpoint-store.js';
import type { RunState } from '../../src/state/run-state.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { decideComplex, planJson, setup } from '../orchestrator/helpers.js';

const summary = z.object({ total: z.number(), note: z.string() });
const ANSWER = { total: 5, note: 'two plus three' };
const decideSimple = { text: '{"needsPlan": false, "reasoning": "one step"}' };

describe('Orchestrator output schema', () => {
  it('returns the typed object of a simple run, made by its executor', async () => {
    const { orchestrator, models } = setup({
      planner: [decideSimple],
      executor: [{ text: JSON.stringify(ANSWER) }],
    });
    const result = await orchestrator.run('Add 2 and 3', { output: summary }).result;
    expectTypeOf(result.object).toEqualTypeOf<{ total: number; note: string }>();
    expect(result).toMatchObject({ status: 'success', complexity: 'simple', object: ANSWER });
    expect(JSON.parse(result.output)).toEqual(ANSWER);
    const system = models.executor.requests[0]!.system;
    expect(JSON.stringify(system)).toContain('total');
    expect(models.finalizer.calls).toBe(0);
  });

  it('formats the finalized answer of a planned run into the object, streaming it', async () => {
    const runtime = testRuntime();
    const finalizer = new ScriptedModel(
      [{ text: 'The total is 5 (two plus three).' }, { text: JSON.stringify(ANSWER) }],
      { id: 'scripted:finalizer', info: { structuredOutput: 'json_schema' } },
    );
    const store = new MemoryCheckpointStore<RunState>();
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([decideComplex, { text: planJson([{ id: 's1' }]) }]),
        executor: new ScriptedModel([{ text: '2 + 3 = 5' }]),
        verifier: new ScriptedModel([{ text: 'PASS: done' }]),
        finalizer,
      },
      planning: { classify: 'llm' },
      checkpoints: { store },
      output: summary,
      runtime,
    });
    const run = orchestrator.run('Add 2 and 3, then explain');
    const events: TandemEvent[] = [];
    run.on('*', (event) => events.push(event));
    const result = await run.result;
    expectTypeOf(result.object).toEqualTypeOf<{ total: number; note: string }>();
    expect(result).toMatchObject({ complexity: 'complex', status: 'success', object: ANSWER });
    const format = finalizer.requests[1]!;
    expect(format.responseFormat?.schema).toMatchObject({ required: ['total', 'note'] });
    expect(textOf(format.messages[0]!)).toContain('The total is 5');
    const partials = events.filter((e) => e.type === 'partial_object');
    expect(partials.at(-1)).toMatchObject({ agent: 'finalizer', object: ANSWER });
    expect((await store.load(run.runId))?.output).toBe(result.output);
  });

  it('gives a completed saved run its object back without a model call', async () => {
    const { orchestrator } = setup({ planner: [decideSimple], executor: [{ text: JSON.stringify(ANSWER) }] });
    const run = orchestrator.run('Add 2 and 3', { output: summary });
    await run.result;
    const saved = run.state();
    const { orchestrator: again, models } = setup({});
    const resumed = await again.resume(saved, { output: summary }).result;
    expect(resumed.object).toEqual(ANSWER);
    expect(models.executor.calls + models.finalizer.calls + models.planner.calls).toBe(0);
  });

  it('keeps the output guardrail: a redacted answer that still matches, else a guardrail error', async () => {
    const reply = { text: JSON.stringify({ contact: 'jane.doe@example.com', note: 'write to her' }) };
    const options = {
      safety: { guardrails: new Guardrails() },
      planning: { classify: 'heuristic' as const },
    };
    const loose = z.object({ contact: z.string(), note: z.string() });
    const { orchestrator } = setup({ executor: [reply] }, options);
    const result = await orchestrator.run('Who do I contact?', { output: loose }).result;
    expect(result.object.contact).not.toContain('jane.doe@example.com');
    expect(JSON.parse(result.output)).toEqual(result.object);

    const strict = z.object({ contact: z.email(), note: z.string() });
    const { orchestrator: again } = setup({ executor: [reply] }, options);
    const { status, error } = await again.run('Who do I contact?', { output: strict }).result;
    expect(status).toBe('failed');
    expect(error).toMatchObject({ kind: 'guardrail' });
  });
});
