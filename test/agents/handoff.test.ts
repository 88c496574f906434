import { describe, expect, it } from 'vitest';
import {
  type AgentProfile,
  AgentRegistry,
  HandoffManager,
  type HandoffManagerOptions,
} from '../../src/agents/handoff/index.js';
import { SharedMemory } from '../../src/context/shared-memory.js';
import { AbortError, ModelError } from '../../src/core/errors.js';
import { EventBus } from '../../src/core/event-bus.js';
import type { TandemEvent } from '../../src/core/events.js';
import type { Message } from '../../src/core/messages.js';
import type { Sandbox } from '../../src/core/sandbox.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { expectInvariants } from '../support/invariants.js';

function handoff(target: string, task: string, context?: string): ScriptEntry {
  return {
    toolCalls: [{ name: `handoff_to_${target}`, args: context === undefined ? { task } : { task, context } }],
  };
}

function lastUserText(messages: Message[]): string {
  const user = messages.filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : '';
}

function toolResults(messages: Message[]): { name: string; content: string; isError: boolean }[] {
  return messages.flatMap((m) =>
    m.role === 'tool'
      ? m.content.map((p) => ({ name: p.toolName ?? '', content: p.content, isError: p.isError ?? false }))
      : [],
  );
}

interface Setup {
  manager: HandoffManager;
  models: Record<string, ScriptedModel>;
  events: TandemEvent[];
  bus: EventBus;
}

/** One scripted model per agent; `matrix` maps each agent to its targets. */
function setup(
  matrix: Record<string, string[]>,
  scripts: Record<string, ScriptEntry[]>,
  extra: Partial<HandoffManagerOptions> & { profiles?: Partial<Record<string, Partial<AgentProfile>>> } = {},
): Setup {
  const runtime = testRuntime();
  const models: Record<string, ScriptedModel> = {};
  const profiles: AgentProfile[] = Object.entries(matrix).map(([name, handoffs]) => {
    models[name] = new ScriptedModel(scripts[name] ?? [], { id: `scripted:${name}` });
    return {
      name,
      description: `the ${name} agent`,
      instructions: `You are ${name}.`,
      model: models[name],
      handoffs,
      ...extra.profiles?.[name],
    };
  });
  const { profiles: _, ...options } = extra;
  const manager = new HandoffManager({ agents: new AgentRegistry(profiles), runtime, ...options });
  const bus = new EventBus({ runId: 'run_1', clock: runtime.clock });
  const events: TandemEvent[] = [];
  bus.on('*', (e) => events.push(e));
  return { manager, models, events, bus };
}

const handoffEvents = (events: TandemEvent[]) =>
  events.filter((e): e is TandemEvent<'handoff'> => e.type === 'handoff');

describe('HandoffManager: carrying out handoffs', () => {
  it('gives the target the delegated task, the context and the shared memory, and stops the source', async () => {
    const { manager, models, events, bus } = setup(
      { chat: ['research'], research: [] },
      {
        chat: [handoff('research', 'Find the 2024 revenue of ACME', 'User wants a one-line answer')],
        research: [{ text: 'ACME made $12M in 2024.' }],
      },
    );
    const memory = new SharedMemory();
    memory.set('researchFindings', 'ACME files annual reports in March.');
    const result = await manager.run('chat', 'How much did ACME make?', { emit: bus, memory });

    expect(result).toMatchObject({
      output: 'ACME made $12M in 2024.',
      agent: 'research',
      visited: ['chat', 'research'],
    });
    expect(lastUserText(models.research!.requests[0]!.messages)).toBe(
      'Find the 2024 revenue of ACME\n\nContext: User wants a one-line answer\n\n---\n' +
        'Shared Context:\n\n### Research Findings\nACME files annual reports in March.',
    );
    expect(models.research!.requests[0]!.system).toBe('You are research.');
    // The source made exactly its one scripted call: no model turn after the handoff.
    expect(models.chat!.calls).toBe(1);
    expect(handoffEvents(events)).toEqual([
      expect.objectContaining({
        from: 'chat',
        to: 'research',
        task: 'Find the 2024 revenue of ACME',
        accepted: true,
      }),
    ]);
    const results = events.filter((e): e is TandemEvent<'tool_result'> => e.type === 'tool_result');
    expect(results[0]).toMatchObject({ name: 'handoff_to_research', isError: false });
    expect(results[0]!.output).toContain('handed off to "research"');
    expectInvariants(events, { terminal: false });
  });

  it('offers one handoff_to_<target> tool per allowed target, with task and context arguments', async () => {
    const { manager, models } = setup(
      { chat: ['research', 'code'], research: [], code: [] },
      { chat: [{ text: 'Hello!' }] },
    );
    const result = await manager.run('chat', 'hi');
    expect(result).toMatchObject({ output: 'Hello!', agent: 'chat', handoffs: [], summary: 'No handoffs.' });
    const tools = models.chat!.requests[0]!.tools!;
    expect(tools.map((t) => t.name)).toEqual(['handoff_to_code', 'handoff_to_research']);
    expect(tools[0]!.description).toContain('the code agent');
    expect(tools[0]!.parameters).toMatchObject({ properties: { task: {}, context: {} }, required: ['task'] });
  });

  it('refuses A→B→A with an explanation, and B carries on', async () => {
    const { manager, models, events, bus } = setup(
      { chat: ['research'], research: ['chat'] },
      {
        chat: [handoff('research', 'Research X')],
        research: [handoff('chat', 'You answer it'), { text: 'Research answer.' }],
      },
    );
    const result = await manager.run('chat', 'q', { emit: bus });
    expect(result).toMatchObject({
      output: 'Research answer.',
      agent: 'research',
      visited: ['chat', 'research'],
    });
    const refusal = toolResults(models.research!.requests[1]!.messages).at(-1)!;
    expect(refusal.isError).toBe(true);
    expect(refusal.content).toContain('"chat" already worked on this run (chat → research)');
    expect(handoffEvents(events).map((e) => [e.from, e.to, e.accepted])).toEqual([
      ['chat', 'research', true],
      ['research', 'chat', false],
    ]);
    expect(handoffEvents(events)[1]!.reason).toContain('handing back would loop');
    expect(result.summary).toBe(
      '1. chat → research: Research X (accepted)\n2. research → chat: You answer it (refused: "chat" already worked on this run (chat → research); handing back would loop)',
    );
  });

  it('carries out the 3rd handoff and refuses the 4th', async () => {
    const { manager, models, events, bus } = setup(
      { a: ['b'], b: ['c'], c: ['d'], d: ['e'], e: [] },
      {
        a: [handoff('b', 'to b')],
        b: [handoff('c', 'to c')],
        c: [handoff('d', 'to d')],
        d: [handoff('e', 'to e'), { text: 'd answers' }],
      },
    );
    const result = await manager.run('a', 'start', { emit: bus });
    expect(result).toMatchObject({ output: 'd answers', agent: 'd', visited: ['a', 'b', 'c', 'd'] });
    expect(lastUserText(models.d!.requests[0]!.messages)).toBe('to d');
    expect(toolResults(models.d!.requests[1]!.messages).at(-1)!.content).toContain(
      'the run already used its 3 handoff(s) (a → b → c → d)',
    );
    expect(handoffEvents(events).map((e) => e.accepted)).toEqual([true, true, true, false]);
    expect(models.e!.calls).toBe(0);
  });

  it('honours maxHandoffs: 0 refuses every handoff', async () => {
    const { manager, models } = setup(
      { chat: ['research'], research: [] },
      { chat: [handoff('research', 'go'), { text: 'myself' }] },
      { maxHandoffs: 0 },
    );
    const result = await manager.run('chat', 'q');
    expect(result.agent).toBe('chat');
    expect(toolResults(models.chat!.requests[1]!.messages)[0]!.content).toContain('used its 0 handoff(s)');
  });

  it('does not offer tools for targets outside the matrix; calling one is refused, not repaired to another target', async () => {
    const { manager, models, events, bus } = setup(
      { code: ['data'], data: [], research: [] },
      { code: [handoff('research', 'search'), { text: 'did it myself' }] },
    );
    const result = await manager.run('code', 'q', { emit: bus });
    expect(result).toMatchObject({ output: 'did it myself', agent: 'code', visited: ['code'] });
    expect(models.code!.requests[0]!.tools!.map((t) => t.name)).toEqual(['handoff_to_data']);
    const answer = toolResults(models.code!.requests[1]!.messages)[0]!;
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain('"code" may not hand off to "research" (allowed targets: data)');
    expect(handoffEvents(events)).toEqual([
      expect.objectContaining({ from: 'code', to: 'research', accepted: false }),
    ]);
    expect(models.research!.calls + models.data!.calls).toBe(0);
  });

  it('accepts a handoff tool name that only differs in case or separators', async () => {
    const { manager } = setup(
      { chat: ['research'], research: [] },
      {
        chat: [{ toolCalls: [{ name: 'Handoff-To-Research', args: { task: 'go' } }] }],
        research: [{ text: 'done' }],
      },
    );
    expect(await manager.run('chat', 'q')).toMatchObject({ output: 'done', agent: 'research' });
  });

  it('refuses a second handoff in the same turn and invalid arguments, without crashing', async () => {
    const { manager, models, events, bus } = setup(
      { chat: ['research', 'code'], research: [], code: [] },
      {
        chat: [
          {
            toolCalls: [
              { name: 'handoff_to_code', args: { task: '' } },
              { name: 'handoff_to_research', args: { task: 'first' } },
              { name: 'handoff_to_code', args: { task: 'second' } },
            ],
          },
        ],
        research: [{ text: 'research done' }],
      },
    );
    const result = await manager.run('chat', 'q', { emit: bus });
    expect(result).toMatchObject({ output: 'research done', agent: 'research' });
    const outcomes = events.filter((e): e is TandemEvent<'tool_result'> => e.type === 'tool_result');
    expect(outcomes.map((o) => o.isError)).toEqual([true, false, true]);
    expect(outcomes[2]!.output).toContain('a handoff to "research" is already under way');
    expect(models.code!.calls).toBe(0);
    expect(result.handoffs.map((h) => h.accepted)).toEqual([true, false]);
  });

  it('hands off even when the handoff turn used the last iteration', async () => {
    const { manager } = setup(
      { chat: ['research'], research: [] },
      { chat: [handoff('research', 'go')], research: [{ text: 'done' }] },
      { profiles: { chat: { maxIterations: 1 } } },
    );
    expect(await manager.run('chat', 'q')).toMatchObject({ output: 'done', agent: 'research' });
  });

  it('adds the usage of every agent, the stopped source included', async () => {
    const { manager } = setup(
      { chat: ['research'], research: [] },
      {
        chat: [
          {
            ...(handoff('research', 'go') as object),
            usage: { inputTokens: 10, outputTokens: 2 },
          } as ScriptEntry,
        ],
        research: [{ text: 'done', usage: { inputTokens: 5, outputTokens: 3 } }],
      },
    );
    const result = await manager.run('chat', 'q');
    expect(result.usage).toMatchObject({ inputTokens: 15, outputTokens: 5 });
  });

  it('emits balanced agent stages and passes history to the first agent only', async () => {
    const { manager, models, events, bus } = setup(
      { chat: ['research'], research: [] },
      { chat: [handoff('research', 'go')], research: [{ text: 'done' }] },
    );
    const history: Message[] = [{ role: 'user', content: 'earlier question' }];
    await manager.run('chat', 'q', { emit: bus, history });
    expect(models.chat!.requests[0]!.messages[0]).toEqual(history[0]);
    expect(models.research!.requests[0]!.messages).toHaveLength(1);
    const stages = events.filter((e): e is TandemEvent<'stage'> => e.type === 'stage');
    expect(stages.map((s) => [s.agent, s.status, s.detail])).toEqual([
      ['chat', 'running', 'chat'],
      ['chat', 'completed', 'handed off to research'],
      ['research', 'running', 'research'],
      ['research', 'completed', 'research'],
    ]);
    expectInvariants(events, { terminal: false });
  });

  it('propagates the caller’s abort from the target agent', async () => {
    const controller = new AbortController();
    const { manager } = setup(
      { chat: ['research'], research: [] },
      {
        chat: [handoff('research', 'go')],
        research: [
          (_request) => {
            controller.abort();
            return { hang: true };
          },
        ],
      },
    );
    await expect(manager.run('chat', 'q', { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });

  it('rethrows a failure of the final agent and closes its stage as failed', async () => {
    const { manager, events, bus } = setup(
      { chat: [] },
      { chat: [{ error: new ModelError('auth', 'bad key') }] },
    );
    await expect(manager.run('chat', 'q', { emit: bus })).rejects.toMatchObject({ kind: 'model' });
    expect(events.filter((e) => e.type === 'stage').map((e) => (e as TandemEvent<'stage'>).status)).toEqual([
      'running',
      'failed',
    ]);
  });
});

describe('HandoffManager: artifacts between sandboxes', () => {
  const sandbox = (id: string) => ({ id }) as Sandbox;

  it('moves the artifacts when both agents have a sandbox and lists them for the target', async () => {
    const calls: [string, string][] = [];
    const { manager, models } = setup(
      { code: ['data'], data: [] },
      { code: [handoff('data', 'Plot results.csv')], data: [{ text: 'plotted' }] },
      {
        profiles: { code: { sandbox: sandbox('sb-code') }, data: { sandbox: sandbox('sb-data') } },
        transferArtifacts: async (from, to) => {
          calls.push([from.id, to.id]);
          return ['results.csv', 'model.py'];
        },
      },
    );
    await manager.run('code', 'q');
    expect(calls).toEqual([['sb-code', 'sb-data']]);
    expect(lastUserText(models.data!.requests[0]!.messages)).toBe(
      'Plot results.csv\n\nArtifacts from "code" (now in your workspace): results.csv, model.py',
    );
  });

  it('tells the target when moving failed, and still hands off', async () => {
    const { manager, models } = setup(
      { code: ['data'], data: [] },
      { code: [handoff('data', 'Plot')], data: [{ text: 'plotted' }] },
      {
        profiles: { code: { sandbox: sandbox('a') }, data: { sandbox: sandbox('b') } },
        transferArtifacts: async () => {
          throw new Error('storage offline');
        },
      },
    );
    expect(await manager.run('code', 'q')).toMatchObject({ output: 'plotted' });
    expect(lastUserText(models.data!.requests[0]!.messages)).toContain(
      'Not all artifacts of "code" reached your workspace: storage offline',
    );
  });

  it('accepts a transfer report and tells the target which files were left behind', async () => {
    const { manager, models } = setup(
      { code: ['data'], data: [] },
      { code: [handoff('data', 'Plot')], data: [{ text: 'plotted' }] },
      {
        profiles: { code: { sandbox: sandbox('a') }, data: { sandbox: sandbox('b') } },
        transferArtifacts: async () => ({
          transferred: [{ path: 'a.csv' }],
          skipped: [{ path: 'huge.csv', reason: 'max_bytes' }],
        }),
      },
    );
    await manager.run('code', 'q');
    expect(lastUserText(models.data!.requests[0]!.messages)).toBe(
      'Plot\n\nArtifacts from "code" (now in your workspace): a.csv\n\n' +
        'Not all artifacts of "code" reached your workspace: left behind: huge.csv (max_bytes)',
    );
  });

  it('does not call the transfer when an agent has no sandbox', async () => {
    let called = false;
    const { manager } = setup(
      { code: ['data'], data: [] },
      { code: [handoff('data', 'Plot')], data: [{ text: 'plotted' }] },
      {
        profiles: { code: { sandbox: sandbox('a') } },
        transferArtifacts: async () => {
          called = true;
          return [];
        },
      },
    );
    await manager.run('code', 'q');
    expect(called).toBe(false);
  });
});
