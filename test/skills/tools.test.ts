import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Executor, executeOn } from '../../src/agents/executor/index.js';
import { createSkillTools, defineSkill, SkillRegistry } from '../../src/skills/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { validateSchema } from '../../src/tools/schema.js';
import type { Tool, ToolContext } from '../../src/tools/types.js';
import { expectInvariants } from '../support/invariants.js';
import { recorder } from './helpers.js';

const greet = defineSkill({
  id: 'greet',
  name: 'Greeter',
  description: 'Greet someone by name',
  category: 'social',
  tags: ['demo'],
  parameters: z.object({ name: z.string() }),
  output: z.object({ greeting: z.string() }),
  run: ({ name }) => ({ greeting: `Hello, ${name}!` }),
});

const wipe = defineSkill({
  id: 'wipe',
  description: 'Delete the workspace',
  category: 'ops',
  risk: 'risky',
  parameters: z.object({}),
  output: z.literal('wiped'),
  run: () => 'not quite' as never,
});

const loopA = defineSkill({
  id: 'loop_a',
  description: 'calls loop_b',
  category: 'test',
  parameters: z.object({}),
  output: z.unknown(),
  run: (_p, ctx) => ctx.invokeSkill('loop_b', {}),
});
const loopB = defineSkill({
  ...loopA,
  id: 'loop_b',
  description: 'calls loop_a',
  run: (_p, ctx) => ctx.invokeSkill('loop_a', {}),
});

function tools(
  options?: Parameters<typeof createSkillTools>[1],
  registry = new SkillRegistry({ skills: [greet, wipe, loopA, loopB] }),
) {
  const [invoke, list] = createSkillTools(registry, options) as [Tool, Tool];
  return { invoke, list, registry };
}

function ctx(): ToolContext {
  const { bus } = recorder();
  return {
    signal: new AbortController().signal,
    runId: 'run_1',
    toolCallId: 'call_1',
    emit: bus.scope({ parentId: 'call_1' }),
  };
}

async function call(tool: Tool, args: unknown) {
  const validated = await validateSchema(tool.parameters, args);
  if (!validated.success) throw new Error(`invalid arguments: ${JSON.stringify(validated.issues)}`);
  return JSON.parse(String(await tool.execute(validated.data, ctx())));
}

describe('invoke_skill', () => {
  it('returns the output as JSON with success: true', async () => {
    const { invoke } = tools();
    const raw = String(await invoke.execute({ skill_id: 'greet', params: { name: 'Ada' } }, ctx()));
    expect(raw).toBe(
      JSON.stringify({ skill_id: 'greet', output: { greeting: 'Hello, Ada!' }, success: true }, null, 2),
    );
  });

  it('answers an unknown id with JSON listing the available ids', async () => {
    expect(await call(tools().invoke, { skill_id: 'great', params: {} })).toEqual({
      error: 'Skill \'great\' not found. Available skills: ["greet","wipe","loop_a","loop_b"]',
      kind: 'not_found',
      skill_id: 'great',
    });
  });

  it('answers invalid parameters with the expected parameters and the issues', async () => {
    const result = await call(tools().invoke, { skill_id: 'greet', params: { nom: 'Ada' } });
    expect(result).toMatchObject({
      kind: 'invalid_parameters',
      skill_id: 'greet',
      expected_parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      issues: [expect.stringMatching(/^name: /)],
    });
    expect(result.error).toMatch(/^Invalid parameters for skill 'greet'/);
  });

  it('answers invalid output and cycles as JSON errors', async () => {
    const { invoke } = tools();
    expect(await call(invoke, { skill_id: 'wipe' })).toMatchObject({
      kind: 'invalid_output',
      skill_id: 'wipe',
    });
    expect(await call(invoke, { skill_id: 'loop_a' })).toMatchObject({
      kind: 'cycle',
      skill_id: 'loop_a',
      path: ['loop_a', 'loop_b', 'loop_a'],
    });
  });

  it('exposes only the allowed skills and takes the highest risk among them', async () => {
    const scoped = tools({ skills: ['greet'] });
    expect(scoped.invoke.risk).toBe('safe');
    expect(await call(scoped.invoke, { skill_id: 'wipe' })).toMatchObject({
      error: 'Skill \'wipe\' not found. Available skills: ["greet"]',
    });
    expect(tools().invoke.risk).toBe('risky');
  });

  it('runs inside an executor turn: the model reads the JSON, skill_output carries the call id', async () => {
    const { bus, events, ofType, runtime } = recorder();
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: 'call_9', name: 'invoke_skill', args: { skill_id: 'greet', params: { name: 'Bo' } } },
        ],
      },
      { text: 'Done.' },
    ]);
    const executor = new Executor({
      model,
      tools: createSkillTools(new SkillRegistry({ skills: [greet], runtime })),
      runtime,
    });
    await executeOn(executor, 'greet Bo', { emit: bus });
    const toolMessage = model.requests[1]!.messages[2]!;
    expect(toolMessage).toMatchObject({
      role: 'tool',
      content: [{ toolName: 'invoke_skill', isError: false }],
    });
    expect(ofType('skill_output')[0]).toMatchObject({ skillId: 'greet', depth: 0, parentId: 'call_9' });
    expectInvariants(events, { terminal: false });
  });
});

describe('list_skills', () => {
  it('lists id, name, description, category, parameters and tags with a count', async () => {
    const result = await call(tools({ skills: ['greet'] }).list, {});
    expect(result).toEqual({
      skills: [
        {
          id: 'greet',
          name: 'Greeter',
          description: 'Greet someone by name',
          category: 'social',
          parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          tags: ['demo'],
        },
      ],
      count: 1,
    });
  });

  it('filters by category and says when nothing matches', async () => {
    const { list } = tools();
    expect((await call(list, { category: 'ops' })).skills.map((s: { id: string }) => s.id)).toEqual(['wipe']);
    expect(await call(list, { category: 'cooking' })).toEqual({ message: 'No skills found', skills: [] });
  });
});
