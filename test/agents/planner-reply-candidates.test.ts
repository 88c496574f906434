import { describe, expect, it } from 'vitest';
import {
  isErrorOf,
  PlanError,
  Planner,
  parseJSONLoose,
  parseWithSchema,
  parseWithSchemaAsync,
  planSchema,
  StructuredOutputError,
} from '../../src/index.js';
import { loadZod } from '../../src/model/lazy-zod.js';
import { FakeClock, flush, ScriptedModel } from '../../src/testing/index.js';

const step = (id: string, extra = '') => `{"id": "${id}", "description": "Do ${id}"${extra}}`;

function planner(replies: string[]) {
  const model = new ScriptedModel(replies.map((text) => ({ text })));
  const clock = new FakeClock();
  return { model, clock, planner: new Planner({ model, runtime: { clock } }) };
}

/** Runs a planner call to its end, advancing the fake clock through the re-ask delays. */
async function settle<T>(clock: FakeClock, pending: Promise<T>): Promise<T | unknown> {
  const result = pending.catch((error: unknown) => error);
  for (let i = 0; i < 5; i++) {
    await flush();
    await clock.advance(10_000);
  }
  return result;
}

describe('a plan reply is read as the whole plan, whatever near-JSON it holds', () => {
  it('a trailing comma after the last step still yields the whole plan, not its first step', async () => {
    const reply = `{"title": "T", "summary": "S", "steps": [${step('a')}, ${step('b', ', "dependsOn": ["a"]')},]}`;
    const plan = await parseWithSchemaAsync(reply, planSchema, 'object');
    expect(plan.title).toBe('T');
    expect(plan.steps.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('every step trailing-commaed yields the plan, not an inner dependsOn array', async () => {
    const reply = `{"title": "T", "summary": "S", "steps": [{"id": "a", "description": "x", "dependsOn": [],}, {"id": "b", "description": "y", "dependsOn": ["a"],},]}`;
    expect(parseJSONLoose(reply)).toMatchObject({ title: 'T', steps: [{ id: 'a' }, { id: 'b' }] });
    const plan = await parseWithSchemaAsync(reply, planSchema, 'object');
    expect(plan.steps.map((s) => s.dependsOn)).toEqual([[], ['a']]);
  });

  it('a single-quoted title does not lose to the steps array', async () => {
    const reply = `{'title': 'Quoted', "summary": "S", "steps": [${step('a')}]}`;
    expect((await parseWithSchemaAsync(reply, planSchema, 'object')).title).toBe('Quoted');
  });

  it('an example block before the real plan does not fail every attempt', async () => {
    const reply = `An example of the format:\n\`\`\`json\n{"example": true}\n\`\`\`\nThe plan:\n\`\`\`json\n{"title": "Real", "summary": "S", "steps": [${step('a')}]}\n\`\`\``;
    const { model, clock, planner: p } = planner([reply]);
    const plan = await settle(clock, p.createPlan('task'));
    expect(model.calls).toBe(1);
    expect(plan).toMatchObject({ title: 'Real' });
  });

  it('the re-ask says what was wrong with the closest candidate, not "no JSON"', async () => {
    const {
      model,
      clock,
      planner: p,
    } = planner(['[]', `{"title": "T", "summary": "S", "steps": [${step('a')}]}`]);
    await settle(clock, p.createPlan('task'));
    const text = JSON.stringify(model.requests[1]!.messages.at(-1)!.content);
    expect(text).toContain('a JSON array where a JSON object is required');
    expect(text).not.toContain('contains no JSON');
  });

  it('parseWithSchema reports a schema failure over an unparsable block', async () => {
    // planSchema validates synchronously once zod is imported.
    await loadZod();
    const error = (() => {
      try {
        parseWithSchema('{oops\n```json\n{"title": "T", "steps": []}\n```', planSchema, 'object');
      } catch (e) {
        return e;
      }
    })();
    expect(isErrorOf(error, StructuredOutputError)).toBe(true);
    expect((error as StructuredOutputError).kind).toBe('schema_mismatch');
  });
});

describe('planner failures quote the reply', () => {
  it('the decision error text quotes at most 200 characters of the offending reply', async () => {
    const long = `I am not sure. ${'blah '.repeat(100)}`;
    const { clock, planner: p } = planner([long, long, long]);
    const error = await settle(clock, p.decide('task'));
    expect(isErrorOf(error, PlanError)).toBe(true);
    const message = (error as PlanError).message;
    expect(message).toContain('Response was: I am not sure. blah');
    const quoted = message.slice(message.indexOf('Response was: ') + 'Response was: '.length);
    expect(quoted.length).toBeLessThanOrEqual(203);
    expect(quoted.endsWith('...')).toBe(true);
  });
});

describe('a plan without a summary', () => {
  it('is re-asked like a missing title, so step prompts never quote an empty summary', async () => {
    const {
      model,
      clock,
      planner: p,
    } = planner([
      `{"title": "T", "steps": [${step('a')}]}`,
      `{"title": "T", "summary": "Does a", "steps": [${step('a')}]}`,
    ]);
    const plan = await settle(clock, p.createPlan('task'));
    expect(model.calls).toBe(2);
    expect(plan).toMatchObject({ summary: 'Does a' });
    expect(JSON.stringify(model.requests[1]!.messages.at(-1)!.content)).toContain('summary');
  });

  it('a blank summary is re-asked too', async () => {
    const {
      model,
      clock,
      planner: p,
    } = planner([
      `{"title": "T", "summary": "  ", "steps": [${step('a')}]}`,
      `{"title": "T", "summary": "Does a", "steps": [${step('a')}]}`,
    ]);
    await settle(clock, p.createPlan('task'));
    expect(model.calls).toBe(2);
  });
});
