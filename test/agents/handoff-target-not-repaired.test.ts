/**
 * A handoff names its target, so a call to a target the agent is not offered
 * is refused as that target — never "repaired" into an offered target spelt
 * alike — and the events, the result and the conversation keep the one name
 * the model used.
 */
import { describe, expect, it } from 'vitest';
import {
  AgentRegistry,
  EventBus,
  HandoffManager,
  type Message,
  type TandemEvent,
  type ToolCallPart,
  type ToolResultPart,
} from '../../src/index.js';
import { type ScriptEntry, ScriptedModel, testRuntime } from '../../src/testing/index.js';

interface Outcome {
  events: TandemEvent[];
  models: Record<'chat' | 'data' | 'writing', ScriptedModel>;
  output: string;
}

/** `chat` may hand off to `data` only; `writing` is an agent it is not offered. */
async function runChat(script: ScriptEntry[], dataScript: ScriptEntry[] = []): Promise<Outcome> {
  const runtime = testRuntime();
  const models = {
    chat: new ScriptedModel(script, { id: 'scripted:chat' }),
    data: new ScriptedModel(dataScript, { id: 'scripted:data' }),
    writing: new ScriptedModel([], { id: 'scripted:writing' }),
  };
  const agents = new AgentRegistry([
    { name: 'chat', description: 'talks', instructions: 'Talk.', model: models.chat, handoffs: ['data'] },
    { name: 'data', description: 'analyses data', instructions: 'Analyse.', model: models.data },
    { name: 'writing', description: 'writes', instructions: 'Write.', model: models.writing },
  ]);
  const bus = new EventBus({ runId: 'run_1', clock: runtime.clock });
  const events: TandemEvent[] = [];
  bus.on('*', (e) => events.push(e));
  const result = await new HandoffManager({ agents, runtime }).run('chat', 'q', { emit: bus });
  return { events, models, output: result.output };
}

const callTo = (name: string): ScriptEntry => ({
  toolCalls: [{ name, id: 'c1', args: { task: 'write it up' } }],
});

const partType = (part: unknown) => (part as { type: string }).type;

function namesOf(outcome: Outcome): Record<string, unknown> {
  const messages: Message[] = outcome.models.chat.requests[1]!.messages;
  const parts = messages.flatMap((m): unknown[] => (Array.isArray(m.content) ? m.content : []));
  const call = outcome.events.find((e): e is TandemEvent<'tool_call'> => e.type === 'tool_call')!;
  const result = outcome.events.find((e): e is TandemEvent<'tool_result'> => e.type === 'tool_result')!;
  return {
    toolCallEvent: call.name,
    requestedName: call.requestedName,
    toolResultEvent: result.name,
    assistantMessage: parts.find((p): p is ToolCallPart => partType(p) === 'tool_call')!.name,
    toolMessage: parts.find((p): p is ToolResultPart => partType(p) === 'tool_result')!.toolName,
  };
}

describe('HandoffManager: a handoff tool name is never repaired into another target', () => {
  it.each(['handoff_to_writing', 'handoff_to_dta'])(
    'refuses %s as that name: events, result and messages agree, and no other agent runs',
    async (name) => {
      const outcome = await runChat([callTo(name), { text: 'did it myself' }]);
      const target = name.slice('handoff_to_'.length);
      expect(namesOf(outcome)).toEqual({
        toolCallEvent: name,
        requestedName: undefined,
        toolResultEvent: name,
        assistantMessage: name,
        toolMessage: name,
      });
      const handoffs = outcome.events.filter((e): e is TandemEvent<'handoff'> => e.type === 'handoff');
      expect(handoffs).toEqual([
        expect.objectContaining({ from: 'chat', to: target, accepted: false, parentId: 'c1' }),
      ]);
      const result = outcome.events.find((e): e is TandemEvent<'tool_result'> => e.type === 'tool_result')!;
      expect(result.isError).toBe(true);
      expect(result.output).toContain(
        `Handoff from "chat" to "${target}" refused: "chat" may not hand off to "${target}" (allowed targets: data)`,
      );
      expect(outcome.output).toBe('did it myself');
      expect(outcome.models.data.calls + outcome.models.writing.calls).toBe(0);
    },
  );

  it('still accepts an offered target whose name differs only in case or separators', async () => {
    const outcome = await runChat([callTo('Handoff-To-Data')], [{ text: 'analysed' }]);
    expect(outcome.output).toBe('analysed');
    expect(outcome.events.filter((e) => e.type === 'handoff')).toEqual([
      expect.objectContaining({ to: 'data', accepted: true }),
    ]);
  });
});
