/**
 * tandem's own tools and skills declare their parameters' JSON Schema beside
 * a schema zod builds on first use; what models get must be exactly what zod
 * writes for that schema (same keys, same order).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { handoffArgsSchema, handoffToolFamily } from '../../src/agents/handoff/index.js';
import { HandoffSession } from '../../src/agents/handoff/session-rules.js';
import { verifyResults } from '../../src/agents/orchestrator/verify.js';
import { EventBus } from '../../src/core/event-bus.js';
import { directInvoker } from '../../src/model/invoke.js';
import type { LazySchema } from '../../src/model/lazy-zod.js';
import { parametersJsonSchema } from '../../src/model/schema-json.js';
import { askUserTool } from '../../src/safety/approvals/ask-user-tool.js';
import { MemoryInterruptBus } from '../../src/safety/approvals/interrupt-bus.js';
import { createSkillTools, researchSkills, SkillRegistry } from '../../src/skills/index.js';
import { FakeClock, ScriptedModel } from '../../src/testing/index.js';

/** What zod writes for the schema behind `lazy`, as tandem sends it. */
async function zodJson(lazy: unknown): Promise<string> {
  return JSON.stringify(parametersJsonSchema(await (lazy as LazySchema<unknown>).load(), 'zod'));
}

describe("the JSON Schema of tandem's own tools is the one zod writes", () => {
  it('handoff tools', async () => {
    const session = new HandoffSession('a', () => ['b']);
    const [tool] = handoffToolFamily(session, 'a', [{ name: 'b', description: 'B' }]).tools;
    expect(tool!.parameters).toBe(handoffArgsSchema);
    expect(JSON.stringify(tool!.jsonSchema)).toBe(await zodJson(handoffArgsSchema));
  });

  it('ask_user', async () => {
    const tool = askUserTool({ bus: new MemoryInterruptBus() });
    expect(JSON.stringify(tool.jsonSchema)).toBe(await zodJson(tool.parameters));
  });

  it('invoke_skill and list_skills', async () => {
    const tools = createSkillTools(new SkillRegistry());
    expect(tools).toHaveLength(2);
    for (const tool of tools) expect(JSON.stringify(tool.jsonSchema)).toBe(await zodJson(tool.parameters));
  });

  it('the research skills', async () => {
    const skills = researchSkills({ search: () => [] });
    expect(skills.map((s) => s.id)).toHaveLength(6);
    for (const skill of skills) {
      expect(JSON.stringify(skill.parametersSchema)).toBe(await zodJson(skill.parameters));
    }
  });
});

describe("the verifier's JSON Schema", () => {
  it('is the one zod writes for its verdict', async () => {
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
    const format = model.requests[0]!.responseFormat;
    const zodVerdict = z.object({ verdict: z.enum(['PASS', 'PARTIAL', 'FAIL']), reason: z.string() });
    expect(format).toMatchObject({ type: 'json', name: 'verdict' });
    expect(JSON.stringify(format?.schema)).toBe(JSON.stringify(parametersJsonSchema(zodVerdict, 'zod')));
  });
});
