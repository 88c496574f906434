import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Orchestrator } from '../../src/agents/index.js';
import { parseRunState, RUN_STATE_VERSION } from '../../src/state/run-state.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('RunState', () => {
  it('reads the version-1 fixture (a run stopped in step s2 after its tool ran)', () => {
    const state = parseRunState(fixture('run-state-v1.json'));
    expect(state.version).toBe(RUN_STATE_VERSION);
    expect(state.steps.map((s) => [s.step.id, s.status])).toEqual([
      ['s1', 'completed'],
      ['s2', 'running'],
    ]);
    expect(state.conversations.s2?.messages.at(-1)).toMatchObject({ role: 'tool' });
  });

  it('resumes the version-1 fixture to the end without repeating the recorded tool call', async () => {
    const ran: string[] = [];
    const tool = defineTool({
      name: 'record',
      description: 'Records an entry',
      parameters: z.object({ entry: z.string() }),
      execute: ({ entry }) => {
        ran.push(entry);
        return `recorded ${entry}`;
      },
    });
    const orchestrator = new Orchestrator({
      models: {
        planner: new ScriptedModel([]),
        executor: new ScriptedModel([{ text: 'step two done' }]),
        verifier: false,
        finalizer: ({ steps }) => steps.map((s) => s.output).join(' + '),
      },
      tools: [tool],
      runtime: testRuntime(),
    });
    const result = await orchestrator.resume(fixture('run-state-v1.json')).result;
    expect(result.output).toBe('step one done + step two done');
    expect(ran).toEqual([]);
  });

  it('refuses a state from a newer release with a typed error', () => {
    expect(() => parseRunState({ ...fixture('run-state-v1.json'), version: 99 })).toThrow(
      expect.objectContaining({ kind: 'unsupported_version' }),
    );
  });

  it('refuses an unknown older version that has no migration', () => {
    expect(() => parseRunState({ ...fixture('run-state-v1.json'), version: 0 })).toThrow(
      expect.objectContaining({ kind: 'unsupported_version' }),
    );
  });

  it.each([
    ['not an object', 'state'],
    ['no version', { runId: 'r' }],
    ['a broken step', { ...fixture('run-state-v1.json'), steps: [{ status: 'done' }] }],
  ])('refuses %s as invalid_state', (_name, value) => {
    expect(() => parseRunState(value)).toThrow(expect.objectContaining({ kind: 'invalid_state' }));
  });

  it.each([
    ['a wrong status', { status: 'sleeping' }, /status: Invalid option/],
    ['a negative revision count', { revisions: -1 }, /revisions: Too small/],
    [
      'a message of an unknown role',
      { conversations: { s: { mode: 'normal', messages: [{ role: 'x', content: '' }] } } },
      /conversations\.s\.messages\.0\.role/,
    ],
    ['no usage', { usage: undefined }, /usage: Invalid input/],
  ])('names where the state is wrong: %s', (_name, change, message) => {
    expect(() => parseRunState({ ...fixture('run-state-v1.json'), ...change })).toThrow(message);
  });

  it('returns a copy the run may change without touching the state it was given', () => {
    const saved = fixture('run-state-v1.json');
    const before = structuredClone(saved);
    const state = parseRunState(saved);
    state.status = 'failed';
    state.steps[0]!.output = 'changed';
    state.conversations.s2!.messages.length = 0;
    expect(saved).toEqual(before);
  });

  it('keeps the fields it does not know, and only the token counts of usage', () => {
    const saved = { ...fixture('run-state-v1.json'), extra: { kept: true } };
    saved.usage = { ...saved.usage, costUsd: 0.5 };
    const state = parseRunState(saved) as unknown as Record<string, unknown>;
    expect(state.extra).toEqual({ kept: true });
    expect(state.usage).toEqual({
      inputTokens: saved.usage.inputTokens,
      outputTokens: saved.usage.outputTokens,
      cachedInputTokens: saved.usage.cachedInputTokens,
      reasoningTokens: saved.usage.reasoningTokens,
    });
  });
});
