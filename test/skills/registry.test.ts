import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/core/errors.js';
import { defineSkill, type Skill, SkillError, SkillRegistry, toolSkill } from '../../src/skills/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/types.js';
import { expectInvariants } from '../support/invariants.js';
import { recorder } from './helpers.js';

const echo = defineSkill({
  id: 'echo',
  description: 'Echo a text, repeated',
  category: 'test',
  parameters: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
  output: z.object({ text: z.string() }),
  run: ({ text, times }) => ({ text: text.repeat(times) }),
});

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
});

/** A skill that invokes `next` (when given) and wraps its output. */
function chain(id: string, next?: string): Skill {
  return defineSkill({
    id,
    description: `chain ${id}`,
    category: 'test',
    parameters: z.object({}),
    output: z.array(z.string()),
    async run(_params, ctx) {
      const inner = next ? await ctx.invokeSkill<string[]>(next, {}) : [];
      return [`${id}@${ctx.depth}`, ...inner];
    },
  });
}

async function failure(promise: Promise<unknown>): Promise<SkillError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillError);
  return error as SkillError;
}

describe('SkillRegistry: direct invocation', () => {
  it('invokes a skill without any model call and emits skill_output', async () => {
    const model = new ScriptedModel([]);
    const { runtime, bus, ofType } = recorder();
    const skills = new SkillRegistry({ skills: [echo], model, runtime });
    const output = await skills.invokeDirect(
      'echo',
      { text: 'ab', times: 2 },
      { emit: bus, parentId: 'step_1' },
    );
    expect(output).toEqual({ text: 'abab' });
    expect(model.calls).toBe(0);
    expect(ofType('skill_output')).toEqual([
      expect.objectContaining({ skillId: 'echo', output: { text: 'abab' }, depth: 0, parentId: 'step_1' }),
    ]);
  });

  it('applies parameter defaults and rejects invalid parameters with the expected schema', async () => {
    let runs = 0;
    const counted = defineSkill({
      id: 'counted',
      description: 'counts its runs',
      category: 'test',
      parameters: echo.parameters,
      output: echo.output,
      run: ({ text }) => {
        runs++;
        return { text };
      },
    });
    const skills = new SkillRegistry({ skills: [echo, counted] });
    expect(await skills.invokeDirect('echo', { text: 'x' })).toEqual({ text: 'x' });
    const error = await failure(skills.invokeDirect('counted', { text: 5, times: 0 }));
    expect(error.kind).toBe('invalid_parameters');
    expect(error.issues).toEqual([expect.stringMatching(/^text: /), expect.stringMatching(/^times: /)]);
    expect(error.expectedParameters).toMatchObject({
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    expect(runs).toBe(0);
  });

  it('rejects an output that does not match the output schema', async () => {
    const liar = defineSkill({
      id: 'liar',
      description: 'returns the wrong shape',
      category: 'test',
      parameters: z.object({}),
      output: z.object({ count: z.number() }),
      run: () => ({ count: 'many' }) as never,
    });
    const error = await failure(new SkillRegistry({ skills: [liar] }).invokeDirect('liar', {}));
    expect(error).toMatchObject({
      kind: 'invalid_output',
      skillId: 'liar',
      issues: [expect.stringMatching(/^count: /)],
    });
  });

  it('names the available skills when the id is unknown', async () => {
    const error = await failure(new SkillRegistry({ skills: [echo, chain('a')] }).invokeDirect('ehco', {}));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('Skill \'ehco\' not found. Available skills: ["echo","a"]');
    expect(error.availableSkills).toEqual(['echo', 'a']);
  });

  it('wraps what a skill throws as a failed SkillError with the cause', async () => {
    const cause = new Error('disk full');
    const broken = defineSkill({
      id: 'broken',
      description: 'throws',
      category: 'test',
      parameters: z.object({}),
      output: z.unknown(),
      run: () => {
        throw cause;
      },
    });
    const error = await failure(new SkillRegistry({ skills: [broken] }).invokeDirect('broken', {}));
    expect(error).toMatchObject({ kind: 'failed', message: 'Skill execution failed: disk full', cause });
  });

  it('does not start a skill once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      new SkillRegistry({ skills: [echo] }).invokeDirect(
        'echo',
        { text: 'x' },
        { signal: controller.signal },
      ),
    ).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('rejects duplicate ids, bad ids and a bad maxDepth', () => {
    expect(() => new SkillRegistry({ skills: [echo, echo] })).toThrow(/already registered/);
    expect(() => toolSkill(add, { id: 'has space' })).toThrow(ConfigError);
    expect(() => new SkillRegistry({ maxDepth: -1 })).toThrow(ConfigError);
  });

  it('lists skills by category and describes them with their parameter schema', async () => {
    const skills = new SkillRegistry({ skills: [echo, chain('a')] });
    expect(skills.ids()).toEqual(['echo', 'a']);
    expect(skills.list({ category: 'none' })).toEqual([]);
    expect(await skills.describe({ ids: ['echo'] })).toEqual([
      expect.objectContaining({ id: 'echo', name: 'echo', version: '1.0.0', category: 'test', risk: 'safe' }),
    ]);
  });
});

describe('SkillRegistry: composition', () => {
  it('nests skills, emitting skill_output innermost first with depth and parent ids', async () => {
    const { runtime, bus, ofType } = recorder();
    const skills = new SkillRegistry({ skills: [chain('a', 'b'), chain('b', 'c'), chain('c')], runtime });
    expect(await skills.invokeDirect('a', {}, { emit: bus })).toEqual(['a@0', 'b@1', 'c@2']);
    const outputs = ofType('skill_output');
    expect(outputs.map((e) => [e.skillId, e.depth, e.parentId])).toEqual([
      ['c', 2, 'skill_2'],
      ['b', 1, 'skill_1'],
      ['a', 0, undefined],
    ]);
  });

  it('refuses a cycle A → B → A with a typed error naming the path', async () => {
    const skills = new SkillRegistry({ skills: [chain('a', 'b'), chain('b', 'a')] });
    const error = await failure(skills.invokeDirect('a', {}));
    expect(error).toMatchObject({ kind: 'cycle', skillId: 'a', path: ['a', 'b', 'a'] });
    expect(error.message).toBe('Skill cycle refused: a → b → a');
    const self = await failure(new SkillRegistry({ skills: [chain('s', 's')] }).invokeDirect('s', {}));
    expect(self.kind).toBe('cycle');
  });

  it('allows nesting down to depth 3 and refuses depth 4', async () => {
    const ok = new SkillRegistry({
      skills: [chain('s0', 's1'), chain('s1', 's2'), chain('s2', 's3'), chain('s3')],
    });
    expect(await ok.invokeDirect('s0', {})).toEqual(['s0@0', 's1@1', 's2@2', 's3@3']);
    const deep = new SkillRegistry({
      skills: [chain('s0', 's1'), chain('s1', 's2'), chain('s2', 's3'), chain('s3', 's4'), chain('s4')],
    });
    const error = await failure(deep.invokeDirect('s0', {}));
    expect(error).toMatchObject({ kind: 'depth_limit', skillId: 's4', path: ['s0', 's1', 's2', 's3', 's4'] });
    const shallow = new SkillRegistry({
      skills: [chain('s0', 's1'), chain('s1', 's2'), chain('s2')],
      maxDepth: 1,
    });
    expect((await failure(shallow.invokeDirect('s0', {}))).kind).toBe('depth_limit');
  });

  it('lets a parent catch a nested failure and carry on', async () => {
    const tolerant = defineSkill({
      id: 'tolerant',
      description: 'tries a missing skill',
      category: 'test',
      parameters: z.object({}),
      output: z.string(),
      async run(_p, ctx) {
        try {
          await ctx.invokeSkill('missing', {});
          return 'unexpected';
        } catch (error) {
          return `recovered from ${(error as SkillError).kind}`;
        }
      },
    });
    expect(await new SkillRegistry({ skills: [tolerant] }).invokeDirect('tolerant', {})).toBe(
      'recovered from not_found',
    );
  });
});

describe('SkillContext helpers', () => {
  const adder = defineSkill({
    id: 'adder',
    description: 'adds through the add tool',
    category: 'test',
    parameters: z.object({ a: z.number(), b: z.number() }),
    output: z.number(),
    requiredTools: ['add'],
    async run(args, ctx) {
      return (await ctx.callTool<{ sum: number }>('add', args)).sum;
    },
  });

  it('checks required tools and calls them with tool_call / tool_result events', async () => {
    expect(
      (await failure(new SkillRegistry({ skills: [adder] }).invokeDirect('adder', { a: 1, b: 2 }))).kind,
    ).toBe('missing_tools');
    const { runtime, bus, events, ofType } = recorder();
    const skills = new SkillRegistry({ skills: [adder], tools: [add], runtime });
    expect(await skills.invokeDirect('adder', { a: 1, b: 2 }, { emit: bus })).toBe(3);
    expect(ofType('tool_result')[0]).toMatchObject({
      name: 'add',
      output: '{"sum":3}',
      isError: false,
      parentId: 'skill_1',
    });
    expectInvariants(events, { terminal: false });
  });

  it('generates text with the model and reports usage; fails typed without a model', async () => {
    const say = defineSkill({
      id: 'say',
      description: 'asks the model',
      category: 'test',
      parameters: z.object({ q: z.string() }),
      output: z.string(),
      run: ({ q }, ctx) => ctx.generate(q, { system: 'Be brief.' }),
    });
    const model = new ScriptedModel([{ text: 'Hi there.', usage: { inputTokens: 4, outputTokens: 2 } }]);
    const { runtime, bus, ofType } = recorder();
    const skills = new SkillRegistry({ skills: [say], model, runtime });
    expect(await skills.invokeDirect('say', { q: 'hello' }, { emit: bus })).toBe('Hi there.');
    expect(model.requests[0]).toMatchObject({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(ofType('token')).toEqual([]);
    expect(ofType('usage')[0]).toMatchObject({
      model: 'scripted:model',
      total: { inputTokens: 4, outputTokens: 2 },
    });
    const error = await failure(new SkillRegistry({ skills: [say] }).invokeDirect('say', { q: 'x' }));
    expect(error.kind).toBe('no_model');
  });

  it('runs a ReAct agent with the given tools', async () => {
    const agentic = defineSkill({
      id: 'agentic',
      description: 'runs an agent',
      category: 'test',
      parameters: z.object({}),
      output: z.string(),
      async run(_p, ctx) {
        return (await ctx.runAgent('You add.', 'What is 2+2?', [add])).output;
      },
    });
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'add', args: { a: 2, b: 2 } }] },
      { text: 'It is 4.' },
    ]);
    const skills = new SkillRegistry({ skills: [agentic], model });
    expect(await skills.invokeDirect('agentic', {})).toBe('It is 4.');
    expect(model.requests[0]!.system).toBe('You add.');
    expect(model.requests[0]!.tools!.map((t) => t.name)).toEqual(['add']);
  });

  it('wraps a tool as a skill with toolSkill', async () => {
    const skill = toolSkill(add, { category: 'math', output: z.object({ sum: z.number() }) });
    expect(skill).toMatchObject({
      id: 'add',
      category: 'math',
      description: 'Add two numbers',
      risk: 'safe',
    });
    const skills = new SkillRegistry({ skills: [skill] });
    expect(await skills.invokeDirect('add', { a: 2, b: 5 })).toEqual({ sum: 7 });
    expect((await failure(skills.invokeDirect('add', { a: 'two' }))).kind).toBe('invalid_parameters');
  });
});
