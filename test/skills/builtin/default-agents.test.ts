/**
 * Seed 003's five specialists out of the box (`defaultAgents`): routing by
 * the router prompt's per-agent examples, a chat → research handoff, the
 * writing agent's four phases, findings carried in shared memory to the next
 * agent, and `delegate_to_research` inside an Orchestrator plan step.
 * Scripted models only, offline.
 */
import { describe, expect, it } from 'vitest';
import type { TandemEvent } from '../../../src/core/events.js';
import type { Message } from '../../../src/core/messages.js';
import {
  defaultRouterPrompt,
  EventBus,
  type ModelRequest,
  Orchestrator,
  type SearchFunction,
} from '../../../src/index.js';
import { defaultAgents, SPECIALIST_PROFILES } from '../../../src/skills/builtin/index.js';
import { type ScriptEntry, ScriptedModel, type ScriptStep, testRuntime } from '../../../src/testing/index.js';

function systemText(request: ModelRequest): string {
  const { system } = request;
  if (!system) return '';
  return typeof system === 'string' ? system : system.map((p) => p.text).join('');
}

function textOf(message: Message | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((p) => ('text' in p ? p.text : 'content' in p ? String(p.content) : ''))
    .join('');
}

function lastUser(request: ModelRequest): string {
  return textOf(request.messages.filter((m) => m.role === 'user').at(-1));
}

/** A model answering every call with `policy`. */
function responder(id: string, policy: (request: ModelRequest) => ScriptStep): ScriptedModel {
  return new ScriptedModel([(request) => policy(request)], { id, loop: true });
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? []);

/**
 * A routing model that reads only its system prompt: it picks the agent whose
 * example queries share the most words with the query, and the first agent
 * when the prompt gives no examples.
 */
function exampleRouter(): ScriptedModel {
  return responder('scripted:router', (request) => {
    const query = words(lastUser(request));
    let best = { agent: 'chat', score: 0 };
    let agent = '';
    for (const line of systemText(request).split('\n')) {
      const heading = line.match(/^\d+\. (\w+) - /);
      if (heading) agent = heading[1]!;
      const example = line.match(/Example: "(.*)"/);
      if (!example) continue;
      const score = [...words(example[1]!)].filter((w) => query.has(w)).length;
      if (score > best.score) best = { agent, score };
    }
    return { text: JSON.stringify({ agent: best.agent, confidence: 0.9, reason: 'closest examples' }) };
  });
}

const isAgent = (request: ModelRequest, name: keyof typeof SPECIALIST_PROFILES) =>
  systemText(request).startsWith(SPECIALIST_PROFILES[name].instructions.slice(0, 40));
const toolResults = (request: ModelRequest) => request.messages.filter((m) => m.role === 'tool');

const index: Record<string, { title: string; url: string; snippet: string }[]> = {
  'CRDT merging': [{ title: 'CRDTs', url: 'https://crdt.tech/', snippet: 'Replicas converge.' }],
};
const search: SearchFunction = async (query) => index[query] ?? [];

/** The research pipeline's own calls: queries, analysis, synthesis, report. */
function pipelineSteps(): ScriptEntry[] {
  return [
    { text: '["CRDT merging"]' },
    { text: '[1] says replicas converge.' },
    { text: 'FINDING-42: replicas converge without coordination [1].' },
    { text: '# CRDTs\n\nReplicas converge [1].' },
  ];
}

describe('defaultAgents: the router prompt lists example queries per agent', () => {
  it('renders each agent with its examples', () => {
    const prompt = defaultRouterPrompt([
      { name: 'data', description: 'Data analysis', examples: ['Mean price in sales.csv?'] },
    ]);
    expect(prompt).toContain('1. data - Data analysis\n   Example: "Mean price in sales.csv?"');
  });

  it.each([
    ['chat', 'Hello! What can you help me with today?'],
    ['research', 'Research the current state of sodium-ion batteries, with sources'],
    ['code', 'Write a Python script that removes empty lines from a file and run it'],
    ['writing', 'Write a blog post about hybrid work for engineering managers'],
    ['data', 'What is the average price per category in products.csv?'],
  ])('routes an example-like query to %s', async (expected, query) => {
    const runtime = testRuntime();
    const worker = responder('scripted:worker', () => ({ text: 'done' }));
    const team = defaultAgents({ models: { flash: exampleRouter(), pro: worker, max: worker }, runtime });
    const orchestrator = new Orchestrator({
      models: { planner: worker, executor: worker, verifier: false },
      runtime,
      planning: { classify: () => 'simple' },
      ...team,
    });
    const events: TandemEvent[] = [];
    const run = orchestrator.run(query);
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    const routing = events.find((e) => e.type === 'routing');
    expect(routing).toMatchObject({ agent: expected, method: 'llm' });
    // The router's default agent (chat) is the Orchestrator's own flow.
    expect(result.agent).toBe(expected === 'chat' ? undefined : expected);
  });
});

describe('defaultAgents: handoffs and shared memory', () => {
  it('chat hands off to research out of the box, which researches with the search given', async () => {
    const runtime = testRuntime();
    const agents = responder('scripted:agents', (request) => {
      if (isAgent(request, 'chat')) {
        return {
          toolCalls: [
            {
              name: 'handoff_to_research',
              args: { task: 'How do CRDTs merge?', context: 'offline editing' },
            },
          ],
        };
      }
      const done = toolResults(request).length > 0;
      return done
        ? { text: 'Research answer: replicas converge.' }
        : { toolCalls: [{ name: 'research', args: { query: 'How do CRDTs merge?', depth: 'quick' } }] };
    });
    const skillModel = new ScriptedModel(pipelineSteps());
    const team = defaultAgents({ models: agents, skillModel, search, runtime });
    const orchestrator = new Orchestrator({
      models: { planner: agents, executor: agents },
      runtime,
      ...team,
    });
    const events: TandemEvent[] = [];
    const run = orchestrator.run('How do CRDTs merge concurrent edits?', { mode: 'chat' });
    run.on('*', (e) => events.push(e));
    const result = await run.result;
    expect(result.agent).toBe('research');
    expect(result.output).toBe('Research answer: replicas converge.');
    expect(events.find((e) => e.type === 'handoff')).toMatchObject({
      from: 'chat',
      to: 'research',
      accepted: true,
    });
    expect(events.flatMap((e) => (e.type === 'source' ? [e.url] : []))).toEqual(['https://crdt.tech/']);
    skillModel.assertConsumed();
  });

  it("writes the research agent's findings to shared memory, and the next agent receives them", async () => {
    const runtime = testRuntime();
    const agents = responder('scripted:agents', (request) => {
      if (isAgent(request, 'research')) {
        return toolResults(request).length > 0
          ? { toolCalls: [{ name: 'handoff_to_code', args: { task: 'Prototype a CRDT counter' } }] }
          : { toolCalls: [{ name: 'research', args: { query: 'CRDT merging', depth: 'quick' } }] };
      }
      return { text: 'Code done.' };
    });
    const team = defaultAgents({
      models: agents,
      skillModel: new ScriptedModel(pipelineSteps()),
      search,
      runtime,
    });
    const result = await team.handoffs.run('research', 'How do CRDTs merge?');
    expect(result.visited).toEqual(['research', 'code']);
    expect(result.memory.get('researchFindings')).toContain('FINDING-42');
    const codeInput = agents.requests.filter((r) => isAgent(r, 'code')).map(lastUser)[0];
    expect(codeInput).toContain('Prototype a CRDT counter');
    expect(codeInput).toContain('### Research Findings\nFINDING-42');
    expect(codeInput).toContain('[CRDTs](https://crdt.tech/)');
  });

  it('the writing agent analyzes, outlines, writes and finalizes; only the draft and the final text stream', async () => {
    const runtime = testRuntime();
    const agents = responder('scripted:agents', (request) => {
      const result = toolResults(request)[0];
      if (!result)
        return { toolCalls: [{ name: 'writing', args: { task: 'A post on hybrid work', tone: 'warm' } }] };
      return { text: JSON.parse(textOf(result)).content };
    });
    const skillModel = new ScriptedModel([
      { text: 'ANALYSIS: a blog post for managers' },
      { text: 'OUTLINE: 1. Why 2. How' },
      { text: 'DRAFT text about hybrid work' },
      { text: 'FINAL text about hybrid work' },
    ]);
    const team = defaultAgents({ models: agents, skillModel, runtime });
    const bus = new EventBus({ runId: 'run_w', clock: runtime.clock });
    const events: TandemEvent[] = [];
    bus.on('*', (e) => events.push(e));
    const result = await team.handoffs.run('writing', 'Write a blog post about hybrid work', { emit: bus });
    expect(result.output).toBe('FINAL text about hybrid work');
    const stages = events.flatMap((e) => (e.type === 'stage' && e.status === 'running' ? [e.name] : []));
    expect(stages.filter((s) => ['analyze', 'outline', 'write', 'finalize'].includes(s))).toEqual([
      'analyze',
      'outline',
      'write',
      'finalize',
    ]);
    const skillPrompts = skillModel.requests.map(lastUser);
    expect(skillPrompts[1]).toContain('ANALYSIS: a blog post');
    expect(skillPrompts[2]).toContain('OUTLINE: 1. Why 2. How');
    expect(skillPrompts[3]).toContain('DRAFT text');
    // The skill's tokens carry its invocation as `parentId`; the agent's own reply has none.
    const streamed = events.flatMap((e) => (e.type === 'token' && e.parentId ? [e.delta] : [])).join('');
    expect(streamed).toContain('DRAFT');
    expect(streamed).toContain('FINAL');
    expect(streamed).not.toContain('ANALYSIS');
    expect(streamed).not.toContain('OUTLINE');
    expect(result.memory.get('writingOutline')).toBe('OUTLINE: 1. Why 2. How');
    expect(result.memory.get('writingDraft')).toBe('FINAL text about hybrid work');
  });
});

describe('delegate_to_research inside an orchestrated run', () => {
  it("a plan step delegates twice; the second delegation reads the first one's findings", async () => {
    const runtime = testRuntime();
    const researchInputs: string[] = [];
    const agents = responder('scripted:agents', (request) => {
      if (toolResults(request).length > 0) return { text: 'Research agent answer.' };
      researchInputs.push(lastUser(request));
      return { toolCalls: [{ name: 'research', args: { query: 'CRDT merging', depth: 'quick' } }] };
    });
    const planner = responder('scripted:planner', () => ({
      text: JSON.stringify({
        title: 'CRDT brief',
        summary: 'Research CRDTs',
        steps: [{ id: 'research', description: 'Find out how CRDTs merge edits' }],
      }),
    }));
    let delegations = 0;
    const executor = responder('scripted:executor', (request) => {
      const results = toolResults(request);
      if (results.length < 2) {
        delegations++;
        return { toolCalls: [{ name: 'delegate_to_research', args: { task: `Question ${delegations}` } }] };
      }
      return { text: `Step done: ${textOf(results.at(-1))}` };
    });
    const team = defaultAgents({
      models: agents,
      skillModel: new ScriptedModel([...pipelineSteps(), ...pipelineSteps()]),
      search,
      runtime,
    });
    const orchestrator = new Orchestrator({
      models: {
        planner,
        executor,
        verifier: false,
        finalizer: ({ steps }) => steps.map((s) => s.output).join('\n'),
      },
      runtime,
      planning: { classify: () => 'complex' },
      handoffs: team.handoffs,
    });
    const result = await orchestrator.run('Write a brief on how CRDTs merge edits').result;
    expect(result.status).toBe('success');
    expect(result.output).toBe('Step done: Research agent answer.');
    expect(researchInputs).toHaveLength(2);
    expect(researchInputs[0]).toBe('Question 1');
    expect(researchInputs[1]).toContain('Question 2');
    expect(researchInputs[1]).toContain('### Research Findings\nFINDING-42');
  });

  it('refuses a 4th delegation in a run with a HandoffError the model reads', async () => {
    const runtime = testRuntime();
    const agents = responder('scripted:agents', () => ({ text: 'Research agent answer.' }));
    const executor = responder('scripted:executor', (request) => {
      const results = toolResults(request);
      if (results.length < 4) {
        return {
          toolCalls: [{ name: 'delegate_to_research', args: { task: `Question ${results.length + 1}` } }],
        };
      }
      return { text: `Last: ${textOf(results.at(-1))}` };
    });
    const team = defaultAgents({ models: agents, runtime });
    const orchestrator = new Orchestrator({
      models: { planner: executor, executor, verifier: false },
      runtime,
      planning: { classify: () => 'simple' },
      handoffs: team.handoffs,
    });
    const result = await orchestrator.run('Find four things out').result;
    expect(agents.calls).toBe(3);
    expect(result.output).toContain('Handoff from "executor" to "research" refused');
    expect(result.output).toContain('already used its 3 delegations');
  });
});
