/**
 * tandem's own tools and skills declare their parameters once, as a schema
 * zod builds on first use: the JSON Schema models get is made from it when
 * the specs are first built, with its descriptions, bounds and defaults.
 */
import { describe, expect, it } from 'vitest';
import { handoffToolFamily } from '../../src/agents/handoff/index.js';
import { HandoffSession } from '../../src/agents/handoff/session-rules.js';
import { verifyResults } from '../../src/agents/orchestrator/verify.js';
import { EventBus } from '../../src/core/event-bus.js';
import { directInvoker } from '../../src/model/resilience/resilient-invoker.js';
import { askUserTool } from '../../src/safety/approvals/ask-user-tool.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { createSkillTools, researchSkills, SkillRegistry } from '../../src/skills/index.js';
import { FakeClock, ScriptedModel } from '../../src/testing/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';

describe("the JSON Schema of tandem's own tools, made from their zod schemas", () => {
  it('handoff tools', async () => {
    const session = new HandoffSession('a', () => ['b']);
    const [spec] = await new ToolRegistry()
      .registerFamily(handoffToolFamily(session, 'a', [{ name: 'b', description: 'B' }]))
      .specs();
    expect(spec!.parameters).toEqual({
      type: 'object',
      properties: {
        task: { type: 'string', minLength: 1, description: 'What the other agent should do, self-contained' },
        context: {
          default: '',
          description: expect.stringMatching(/^What you found or decided/),
          type: 'string',
        },
      },
      required: ['task'],
    });
  });

  it('ask_user', async () => {
    const [spec] = await new ToolRegistry([askUserTool({ bus: new MemoryInterruptBus() })]).specs();
    expect(spec!.parameters).toEqual({
      type: 'object',
      properties: {
        question: { type: 'string', minLength: 1, description: 'The question for the user' },
        options: {
          description: 'Choices, when the user should pick one',
          minItems: 1,
          type: 'array',
          items: { type: 'string', minLength: 1 },
        },
      },
      required: ['question'],
    });
  });

  it('invoke_skill and list_skills', async () => {
    const specs = await new ToolRegistry(createSkillTools(new SkillRegistry())).specs();
    expect(specs.map((s) => [s.name, s.parameters])).toEqual([
      [
        'invoke_skill',
        {
          type: 'object',
          properties: {
            skill_id: { type: 'string', description: 'Id of the skill, from list_skills' },
            params: {
              default: {},
              description: "The skill's parameters",
              type: 'object',
              propertyNames: { type: 'string' },
              additionalProperties: {},
            },
          },
          required: ['skill_id'],
        },
      ],
      [
        'list_skills',
        {
          type: 'object',
          properties: { category: { description: 'Only skills of this category', type: 'string' } },
        },
      ],
    ]);
  });

  it('the research skills, as list_skills shows them', async () => {
    const skills = new SkillRegistry({ skills: researchSkills({ search: () => [] }) });
    const described = await skills.describe();
    expect(described).toHaveLength(6);
    for (const skill of described) expect(skill.parameters).toMatchObject({ type: 'object' });
    expect(described.find((s) => s.id === 'research')?.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'The research question' },
        depth: {
          default: 'standard',
          description: 'quick, standard or deep',
          type: 'string',
          enum: ['quick', 'standard', 'deep'],
        },
        scenario: {
          description: expect.stringMatching(/^academic, market, technical or news/),
          type: 'string',
          enum: ['academic', 'market', 'technical', 'news'],
        },
      },
      required: ['query'],
    });
  });
});

describe("the verifier's JSON Schema", () => {
  it('is sent as its native response format', async () => {
    const model = new ScriptedModel([{ text: '{"verdict": "PASS", "reason": "done"}' }], {
      info: { structuredOutput: 'json_schema' },
    });
    const emit = new EventBus({ runId: 'r', clock: new FakeClock() });
    const verdict = await verifyResults({
      invoker: directInvoker(model),
      task: 't',
      steps: [{ id: 's', status: 'completed', output: 'x' }],
      emit,
    });
    expect(verdict.verdict).toBe('pass');
    expect(model.requests[0]!.responseFormat).toEqual({
      type: 'json',
      name: 'verdict',
      schema: {
        type: 'object',
        properties: {
          verdict: { type: 'string', enum: ['PASS', 'PARTIAL', 'FAIL'] },
          reason: { type: 'string' },
        },
        required: ['verdict', 'reason'],
      },
    });
  });
});
