import { describe, expect, it } from 'vitest';
import {
  parseReflection,
  REFLECTION_PROMPT,
  type ReflectionOptions,
} from '../../src/agents/executor/index.js';
import type { ExecutorOptions } from '../../src/agents/index.js';
import { AbortError, ConfigError, ModelError } from '../../src/core/errors.js';
import { type ScriptEntry, ScriptedModel } from '../../src/testing/index.js';
import { callAdd, ofType, runCollect, setup } from '../support/executor-fixtures.js';
import { expectInvariants } from '../support/invariants.js';

const FEEDBACK = '[Reflection feedback] Your previous response was evaluated as incomplete. Note: ';

/** An executor over `script` whose answers `judge` reviews. */
function withJudge(
  script: ScriptEntry[],
  verdicts: ScriptEntry[],
  reflection: Partial<ReflectionOptions> = {},
  options: Partial<ExecutorOptions> = {},
) {
  const judge = new ScriptedModel(verdicts, { id: 'scripted:judge' });
  const built = setup(script, { ...options, reflection: { model: judge, ...reflection } });
  return { ...built, judge };
}

function reflectionStages(events: Parameters<typeof ofType>[0]) {
  return ofType(events, 'stage')
    .filter((e) => e.name === 'reflection')
    .map((e) => (e.detail ? `${e.status}:${e.detail}` : e.status));
}

describe('reflection', () => {
  it('on RETRY appends the feedback message and returns the second answer', async () => {
    const { executor, model, judge } = withJudge(
      [callAdd(2, 3), { text: '5' }, { text: '2 + 3 = 5' }],
      [{ text: 'RETRY: show the operands' }],
    );
    const { result, events } = await runCollect(executor, 'What is 2 + 3?');
    expect(result?.output).toBe('2 + 3 = 5');
    expect(result?.status).toBe('success');
    expect(result?.iterations).toBe(3);
    expect(model.calls).toBe(3);
    expect(judge.calls).toBe(1);
    const third = model.requests[2]!.messages;
    expect(third.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: '5' }] });
    expect(third.at(-1)).toEqual({ role: 'user', content: `${FEEDBACK}show the operands` });
    expect(result?.newMessages.map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(reflectionStages(events)).toEqual(['running', 'completed:RETRY']);
    expectInvariants(events);
  });

  it('on PASS returns the answer at once', async () => {
    const { executor, model, judge } = withJudge([callAdd(2, 3), { text: '5' }], [{ text: 'PASS' }]);
    const { result, events } = await runCollect(executor, 'What is 2 + 3?');
    expect(result?.output).toBe('5');
    expect(model.calls).toBe(2);
    expect(judge.calls).toBe(1);
    expect(reflectionStages(events)).toEqual(['running', 'completed:PASS']);
  });

  it('does not reflect on an answer reached without tool turns', async () => {
    const { executor, model, judge } = withJudge([{ text: 'hello' }], []);
    const { result, events } = await runCollect(executor, 'hi');
    expect(result?.output).toBe('hello');
    expect(model.calls).toBe(1);
    expect(judge.calls).toBe(0);
    expect(reflectionStages(events)).toEqual([]);
  });

  it('waits for minToolTurns tool turns', async () => {
    const { executor, judge } = withJudge([callAdd(2, 3), { text: '5' }], [], { minToolTurns: 2 });
    expect((await runCollect(executor, 'q')).result?.output).toBe('5');
    expect(judge.calls).toBe(0);
  });

  it('reflects once per execution by default, even after a retry', async () => {
    const { executor, model, judge } = withJudge(
      [callAdd(2, 3), { text: 'a1' }, callAdd(1, 1), { text: 'a2' }],
      [{ text: 'RETRY: more' }],
    );
    const { result } = await runCollect(executor, 'q');
    expect(result?.output).toBe('a2');
    expect(model.calls).toBe(4);
    expect(judge.calls).toBe(1);
  });

  it('reflects at most maxReflections times', async () => {
    const { executor, model, judge } = withJudge(
      [callAdd(2, 3), { text: 'a1' }, { text: 'a2' }, { text: 'a3' }],
      [{ text: 'RETRY: x' }, { text: 'RETRY: y' }],
      { maxReflections: 2 },
    );
    const { result } = await runCollect(executor, 'q');
    expect(result?.output).toBe('a3');
    expect(model.calls).toBe(4);
    expect(judge.calls).toBe(2);
    expect(model.requests[3]!.messages.at(-1)).toEqual({ role: 'user', content: `${FEEDBACK}y` });
  });

  it('skips reflection when no iteration is left for a retry', async () => {
    const { executor, judge } = withJudge(
      [callAdd(2, 3), { text: '5' }],
      [],
      {},
      { limits: { maxIterations: 2 } },
    );
    const { result } = await runCollect(executor, 'q');
    expect(result?.output).toBe('5');
    expect(result?.status).toBe('success');
    expect(judge.calls).toBe(0);
  });

  it('keeps the answer when the reflection call fails, and the run succeeds', async () => {
    const { executor, model, judge } = withJudge(
      [callAdd(2, 3), { text: '5' }],
      [{ error: new ModelError('server', 'judge down') }],
    );
    const { result, events } = await runCollect(executor, 'q');
    expect(result?.output).toBe('5');
    expect(result?.status).toBe('success');
    expect(model.calls).toBe(2);
    expect(judge.calls).toBe(1);
    expect(reflectionStages(events)).toEqual(['running', 'failed:judge down']);
    expectInvariants(events);
  });

  it('treats an unreadable verdict as PASS', async () => {
    const { executor, model } = withJudge([callAdd(2, 3), { text: '5' }], [{ text: 'Looks fine to me.' }]);
    expect((await runCollect(executor, 'q')).result?.output).toBe('5');
    expect(model.calls).toBe(2);
  });

  it('sends the prompt in system and a bounded digest as the only user message', async () => {
    const { executor, judge } = withJudge([callAdd(2, 3), { text: '5' }], [{ text: 'PASS' }]);
    await runCollect(executor, 'What is 2 + 3?', { history: [{ role: 'user', content: 'older question' }] });
    const request = judge.requests[0]!;
    expect(request.system).toBe(REFLECTION_PROMPT);
    expect(request.tools).toBeUndefined();
    expect(request.messages).toHaveLength(1);
    const digest = request.messages[0]!.content as string;
    expect(request.messages[0]!.role).toBe('user');
    expect(digest).not.toContain(REFLECTION_PROMPT);
    expect(digest).not.toContain('older question');
    expect(digest).toContain('<user_request>\nWhat is 2 + 3?\n</user_request>');
    expect(digest).toContain('<answer>\n5\n</answer>');
    expect(digest).toContain('- add({"a":2,"b":3}) → 5');
  });

  it('uses a custom prompt', async () => {
    const { executor, judge } = withJudge([callAdd(2, 3), { text: '5' }], [{ text: 'PASS' }], {
      prompt: 'Be strict.',
    });
    await runCollect(executor, 'q');
    expect(judge.requests[0]!.system).toBe('Be strict.');
  });

  it('caps the digest: the last 10 tool calls, each result at 200 characters', async () => {
    const calls = Array.from({ length: 12 }, (_, i) => ({ name: 'add', args: { a: i, b: 0 } }));
    const { executor, judge } = withJudge(
      [{ toolCalls: calls }, { text: 'x'.repeat(5000) }],
      [{ text: 'PASS' }],
    );
    await runCollect(executor, 'y'.repeat(3000));
    const digest = judge.requests[0]!.messages[0]!.content as string;
    const lines = digest.split('\n').filter((l) => l.startsWith('- add'));
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('- add({"a":2,"b":0}) → 2');
    expect(lines[9]).toBe('- add({"a":11,"b":0}) → 11');
    expect(digest).toContain(`${'y'.repeat(2000)}…\n</user_request>`);
    expect(digest).toContain(`${'x'.repeat(4000)}…\n</answer>`);
    expect(digest.length).toBeLessThan(7000);
  });

  it('ends the run as aborted when the caller aborts during reflection', async () => {
    const controller = new AbortController();
    const { executor, judge } = withJudge(
      [callAdd(2, 3), { text: '5' }],
      [
        () => {
          queueMicrotask(() => controller.abort(new Error('user left')));
          return { hang: true };
        },
      ],
    );
    const { error, events } = await runCollect(executor, 'q', { signal: controller.signal });
    expect(error).toBeInstanceOf(AbortError);
    expect(error.kind).toBe('aborted');
    expect(judge.calls).toBe(1);
    expect(reflectionStages(events)[1]).toMatch(/^failed:/);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed', error: { kind: 'aborted' } });
    expectInvariants(events);
  });

  it('keeps the answer when the wall-clock budget runs out during reflection', async () => {
    const judge = new ScriptedModel([
      () => {
        queueMicrotask(() => void clock.advance(1_000));
        return { hang: true };
      },
    ]);
    const { executor, clock } = setup([callAdd(2, 3), { text: '5' }], {
      limits: { timeoutMs: 1_000 },
      reflection: { model: judge },
    });
    const { result } = await runCollect(executor, 'q');
    expect(result?.output).toBe('5');
    expect(result?.status).toBe('success');
  });

  it('sums the judge’s usage into the result and reports it under the executor’s name', async () => {
    const { executor } = withJudge(
      [
        { ...callAdd(2, 3), usage: { inputTokens: 10, outputTokens: 2 } },
        { text: '5', usage: { inputTokens: 20, outputTokens: 1 } },
      ],
      [{ text: 'PASS', usage: { inputTokens: 100, outputTokens: 1 } }],
    );
    const { result, events } = await runCollect(executor, 'q');
    expect(result?.usage).toMatchObject({ inputTokens: 130, outputTokens: 4 });
    const judged = ofType(events, 'usage').find((e) => e.model === 'scripted:judge');
    expect(judged).toMatchObject({
      agent: 'executor',
      usage: { inputTokens: 100 },
      total: { inputTokens: 130 },
    });
  });

  it('returns the earlier answer when the model replies empty after the feedback', async () => {
    const { executor, model } = withJudge(
      [callAdd(2, 3), { text: 'It is 5.' }, { text: '' }],
      [{ text: 'RETRY: why?' }],
    );
    const { result } = await runCollect(executor, 'q');
    expect(result?.output).toBe('It is 5.');
    expect(result?.status).toBe('success');
    expect(model.calls).toBe(3);
  });

  it('keeps the earlier answer as the partial output when the retry runs out of iterations', async () => {
    const { executor, model } = withJudge(
      [callAdd(2, 3), { text: 'It is 5.' }, callAdd(1, 1), callAdd(2, 2)],
      [{ text: 'RETRY: check again' }],
      {},
      { limits: { maxIterations: 4 } },
    );
    const { result } = await runCollect(executor, 'q');
    expect(result?.status).toBe('partial');
    expect(result?.error?.kind).toBe('max_iterations');
    expect(result?.output).toBe('It is 5.');
    expect(model.calls).toBe(4);
  });

  it('rejects invalid reflection options at construction', () => {
    const judge = new ScriptedModel([]);
    expect(() => setup([], { reflection: { model: judge, maxReflections: -1 } })).toThrow(ConfigError);
    expect(() => setup([], { reflection: { model: judge, minToolTurns: 1.5 } })).toThrow(ConfigError);
    expect(() => setup([], { reflection: {} as ReflectionOptions })).toThrow(ConfigError);
  });
});

describe('parseReflection', () => {
  it('reads PASS and RETRY in the forms models write them', () => {
    expect(parseReflection('PASS')).toEqual({ verdict: 'pass' });
    expect(parseReflection(' pass.\n')).toEqual({ verdict: 'pass' });
    expect(parseReflection('**RETRY**: list the files')).toEqual({
      verdict: 'retry',
      feedback: 'list the files',
    });
    expect(parseReflection('retry - cite sources')).toEqual({ verdict: 'retry', feedback: 'cite sources' });
    expect(parseReflection('RETRY')).toEqual({
      verdict: 'retry',
      feedback: 'The answer does not fully address the request.',
    });
  });

  it('returns undefined for anything else', () => {
    expect(parseReflection('Looks good')).toBeUndefined();
    expect(parseReflection('PASSABLE')).toBeUndefined();
    expect(parseReflection('')).toBeUndefined();
  });
});
