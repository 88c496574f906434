import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/agents/planner/index.js';
import { defaultPlannerPrompts, PlanError, Planner } from '../../src/agents/planner/index.js';
import { AbortError, ModelError } from '../../src/core/errors.js';
import type { Emitter, EventPayloads, EventType } from '../../src/core/events.js';
import { type Message, textOf } from '../../src/core/messages.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { ModelRequest } from '../../src/model/types.js';
import { FakeClock, flush } from '../../src/testing/fake-clock.js';
import { type ScriptEntry, ScriptedModel } from '../../src/testing/scripted-model.js';

function recorder(): Emitter & { types: EventType[] } {
  const types: EventType[] = [];
  const emitter = {
    runId: 'run',
    types,
    emit<T extends EventType>(type: T, _payload: EventPayloads[T]) {
      types.push(type);
    },
    scope: () => emitter,
    backpressure: () => undefined,
  };
  return emitter;
}

function setup(script: ScriptEntry[], options: { fallbackToSingleStep?: boolean; jsonMode?: boolean } = {}) {
  const model = new ScriptedModel(script);
  const clock = new FakeClock();
  const planner = new Planner({ model, runtime: { clock }, ...options });
  return { model, clock, planner };
}

/** The system prompt is in `request.system` and no user message carries any of it. */
function expectSystemSeparate(request: ModelRequest): void {
  const system = typeof request.system === 'string' ? request.system : '';
  expect(system.length).toBeGreaterThan(20);
  const head = system.slice(0, 40);
  for (const message of request.messages) {
    if (message.role === 'user') expect(textOf(message)).not.toContain(head);
  }
}

function userTexts(messages: Message[]): string[] {
  return messages.filter((m) => m.role === 'user').map(textOf);
}

const validPlan = {
  title: 'Refactor auth',
  summary: 'Move auth into a module',
  steps: [
    { id: 'read', description: 'Read the auth code', risk: 'safe' },
    { id: 'move', description: 'Move it', dependsOn: ['read'], tools: ['write_file'] },
  ],
};
const json = (value: unknown) => ({ text: JSON.stringify(value) });

describe('Planner.decide', () => {
  it('makes one call: instructions in request.system, "Task: <task>" as the only user message', async () => {
    const { model, planner } = setup([
      { text: '```json\n{"needsPlan": true, "reasoning": "many files"}\n```', usage: { inputTokens: 11 } },
    ]);
    const emit = recorder();
    const decision = await planner.decide('Refactor auth across the codebase', { emit });
    expect(decision).toEqual({
      needsPlan: true,
      reasoning: 'many files',
      usage: { ...emptyUsage(), inputTokens: 11 },
    });
    expect(model.calls).toBe(1);
    const request = model.requests[0]!;
    expect(request.system).toBe(defaultPlannerPrompts.decide);
    expect(request.messages).toEqual([{ role: 'user', content: 'Task: Refactor auth across the codebase' }]);
    expectSystemSeparate(request);
    expect(emit.types).not.toContain('token');
    expect(planner.usage.inputTokens).toBe(11);
  });

  it('defaults a missing reasoning and accepts "false" as a string', async () => {
    const { planner } = setup([{ text: 'Decision: {"needsPlan": "false"}' }]);
    expect(await planner.decide('rename x')).toMatchObject({
      needsPlan: false,
      reasoning: 'No reasoning provided',
    });
  });

  it('re-asks 3 times in all (waits 2500 then 3750 ms), then throws decision_failed', async () => {
    const { model, clock, planner } = setup([
      { text: 'I think it needs a plan', usage: { outputTokens: 1 } },
      { text: '{"needsPlan": "maybe"}', usage: { outputTokens: 1 } },
      { text: '{"reasoning": "x"}', usage: { outputTokens: 1 } },
    ]);
    const callUsage = emptyUsage();
    const settled = planner.decide('task', { usage: callUsage }).catch((e: unknown) => e);
    await flush();
    expect(model.calls).toBe(1);
    await clock.advance(2499);
    expect(model.calls).toBe(1);
    await clock.advance(1);
    expect(model.calls).toBe(2);
    await clock.advance(3749);
    expect(model.calls).toBe(2);
    await clock.advance(1);
    const error = await settled;
    expect(model.calls).toBe(3);
    expect(error).toBeInstanceOf(PlanError);
    expect(error).toMatchObject({ kind: 'decision_failed', attempts: 3, lastReply: '{"reasoning": "x"}' });
    expect((error as PlanError).usage.outputTokens).toBe(3);
    expect(callUsage.outputTokens).toBe(3);
    expect(planner.usage.outputTokens).toBe(3);
    for (const request of model.requests) expectSystemSeparate(request);
  });

  it('does not retry a user abort', async () => {
    const { model, planner } = setup([{ hang: true }, json({ needsPlan: true })]);
    const controller = new AbortController();
    const pending = planner.decide('task', { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(model.calls).toBe(1);
  });
});

describe('Planner.createPlan', () => {
  it('returns the validated plan; context and tools go into the system prompt', async () => {
    const { model, planner } = setup([json(validPlan)], { jsonMode: true });
    const plan = await planner.createPlan('Refactor auth', 'Repo uses Express', {
      tools: [{ name: 'write_file', description: 'writes a file' }],
    });
    expect(plan.steps.map((s) => [s.id, s.risk, s.dependsOn])).toEqual([
      ['read', 'safe', []],
      ['move', 'moderate', ['read']],
    ]);
    const request = model.requests[0]!;
    expect(request.system).toContain('Repo uses Express');
    expect(request.system).toContain('- write_file: writes a file');
    expect(request.responseFormat).toEqual({ type: 'json' });
    expect(userTexts(request.messages)).toEqual(['Task: Refactor auth']);
    expectSystemSeparate(request);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['empty steps', { title: 'T', summary: 'S', steps: [] }, 'at least one step'],
    [
      'duplicate ids',
      {
        title: 'T',
        summary: 'S',
        steps: [
          { id: 'a', description: 'x' },
          { id: 'a', description: 'y' },
        ],
      },
      'Duplicate step id "a"',
    ],
    [
      'missing dependency',
      { title: 'T', summary: 'S', steps: [{ id: 'a', description: 'x', dependsOn: ['b'] }] },
      '"b"',
    ],
    [
      'cycle',
      {
        title: 'T',
        summary: 'S',
        steps: [
          { id: 'a', description: 'x', dependsOn: ['b'] },
          { id: 'b', description: 'y', dependsOn: ['a'] },
        ],
      },
      'Dependency cycle',
    ],
  ];

  for (const [name, reply, errorText] of invalid) {
    it(`re-asks a plan with ${name}, sending back the reply and the error`, async () => {
      const { model, clock, planner } = setup([json(reply), json(validPlan)]);
      const pending = planner.createPlan('task');
      await clock.advance(2500);
      expect((await pending).title).toBe('Refactor auth');
      const second = model.requests[1]!;
      expect(second.messages).toHaveLength(3);
      expect(second.messages[1]!.role).toBe('assistant');
      expect(textOf(second.messages[1]!)).toBe(JSON.stringify(reply));
      expect(second.messages[2]!.role).toBe('user');
      expect(textOf(second.messages[2]!)).toContain(errorText);
      expectSystemSeparate(second);
      model.assertConsumed();
    });
  }

  it('throws invalid_plan after the last attempt when no fallback is configured', async () => {
    const bad = json({ title: 'T', summary: 'S', steps: [] });
    const { model, clock, planner } = setup([bad, bad, bad]);
    const settled = planner.createPlan('task').catch((e: unknown) => e);
    await clock.advance(2500 + 3750);
    const error = await settled;
    expect(error).toBeInstanceOf(PlanError);
    expect(error).toMatchObject({ kind: 'invalid_plan', attempts: 3 });
    expect(model.calls).toBe(3);
  });

  it('returns a one-step plan when fallbackToSingleStep is on', async () => {
    const bad = json({ title: 'T', summary: 'S', steps: [] });
    const { clock, planner } = setup([bad, bad, bad], { fallbackToSingleStep: true });
    const pending = planner.createPlan('fix the login bug');
    await clock.advance(2500 + 3750);
    const plan = await pending;
    expect(plan.steps).toEqual([expect.objectContaining({ id: 'step-1', description: 'fix the login bug' })]);
    expect(plan.fallbackReason).toContain('did not produce a valid plan');
  });

  it('reports a non-retryable model failure as model_failed after one call', async () => {
    const { model, planner } = setup([{ error: new ModelError('auth', 'bad key') }]);
    await expect(planner.createPlan('task')).rejects.toMatchObject({ kind: 'model_failed', attempts: 1 });
    expect(model.calls).toBe(1);
  });
});

describe('Planner.enhanceStepInstructions and takeoverPrompt', () => {
  const step: Plan['steps'][number] = {
    id: 'move',
    description: 'Move the auth code',
    expectedOutput: 'a module',
    tools: ['write_file'],
    expectedFiles: ['src/auth.ts'],
    risk: 'moderate',
    dependsOn: [],
  };

  it('asks for plain-text instructions with the step, error and output in the system prompt', async () => {
    const { model, planner } = setup([{ text: '  Use write_file on src/auth.ts first.  ' }]);
    const text = await planner.enhanceStepInstructions(step, 'ENOENT src/auth.ts', 'tried read_file');
    expect(text).toBe('Use write_file on src/auth.ts first.');
    const request = model.requests[0]!;
    expect(request.system).toContain('Move the auth code');
    expect(request.system).toContain('ENOENT src/auth.ts');
    expect(request.system).toContain('tried read_file');
    expect(request.responseFormat).toBeUndefined();
    expect(userTexts(request.messages)).toEqual(['Task: Move the auth code']);
    expectSystemSeparate(request);
  });

  it('re-asks an empty reply and clips a huge output', async () => {
    const { model, clock, planner } = setup([{ text: '' }, { text: 'Try again with care.' }]);
    const pending = planner.enhanceStepInstructions(step, 'boom', 'x'.repeat(50_000));
    await clock.advance(2500);
    expect(await pending).toBe('Try again with care.');
    expect((model.requests[0]!.system as string).length).toBeLessThan(6000);
    expect(userTexts(model.requests[1]!.messages)[1]).toContain('empty');
  });

  it('builds the takeover prompts without calling the model', () => {
    const { model, planner } = setup([]);
    const prompt = planner.takeoverPrompt(step, 'timed out', 'Plan: refactor');
    expect(prompt.system).toContain(
      'You are taking over execution of a step that the executor failed to complete.',
    );
    expect(prompt.system).toContain("Executor's error: timed out");
    expect(prompt.system).toContain('Plan: refactor');
    expect(prompt.user).toBe('Execute step: Move the auth code');
    expect(prompt.user).not.toContain('taking over');
    expect(model.calls).toBe(0);
  });
});

describe('Planner prompts option', () => {
  it('replaces only the prompts given', async () => {
    const model = new ScriptedModel([json({ needsPlan: false })]);
    const planner = new Planner({ model, prompts: { decide: 'Custom decision prompt, reply JSON.' } });
    await planner.decide('t');
    expect(model.requests[0]!.system).toBe('Custom decision prompt, reply JSON.');
    expect(planner.prompts.createPlan).toBe(defaultPlannerPrompts.createPlan);
  });

  it('rejects a non-positive attempts option', () => {
    expect(() => new Planner({ model: new ScriptedModel([]), attempts: 0 })).toThrow(/attempts/);
  });
});
