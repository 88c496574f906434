import type { Emitter, EventPayloads, EventType } from '../../src/core/events.js';
import type { AssistantMessage, Message, ToolMessage } from '../../src/core/messages.js';
import type { ModelRequest } from '../../src/model/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';

/** An emitter that records events. */
export function recordingEmitter(): Emitter & {
  events: Array<{ type: EventType } & Record<string, unknown>>;
} {
  const events: Array<{ type: EventType } & Record<string, unknown>> = [];
  const emitter = {
    events,
    runId: 'run_test',
    emit<T extends EventType>(type: T, payload: EventPayloads[T]) {
      events.push({ type, ...(payload as object) });
    },
    scope: () => emitter,
    backpressure: () => undefined,
  };
  return emitter;
}

/** A summariser that answers with `reply(request)` and records requests: a looping `ScriptedModel`. */
export function fakeSummarizer(
  reply: (request: ModelRequest, call: number) => string | Error = () => 'SUMMARY',
): ScriptedModel {
  return new ScriptedModel(
    [
      (request, call) => {
        const out = reply(request, call);
        return out instanceof Error ? { error: out } : { text: out };
      },
    ],
    { id: 'fake:summarizer', loop: true, stream: false },
  );
}

export const user = (text: string): Message => ({ role: 'user', content: text });
export const assistant = (text: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});
export const call = (id: string, name = 'read', args = '{}'): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'tool_call', id, name, arguments: args }],
});
export const result = (id: string, content: string, name = 'read'): ToolMessage => ({
  role: 'tool',
  content: [{ type: 'tool_result', toolCallId: id, toolName: name, content }],
});

/** `n` exchanges of user question, tool call, tool result, assistant answer (4 messages each). */
export function toolConversation(n: number, outputChars = 400): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < n; i++) {
    out.push(user(`question ${i} ${'q'.repeat(40)}`));
    out.push(call(`c${i}`));
    out.push(result(`c${i}`, `output ${i} ${'x'.repeat(outputChars)}`));
    out.push(assistant(`answer ${i} ${'a'.repeat(40)}`));
  }
  return out;
}

/** Deep-freezes a value (messages) so any mutation throws. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Every tool call has exactly one result right after its message, and every result has its call. */
export function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      let j = i;
      while (j > 0 && messages[j - 1]!.role === 'tool') j--;
      const caller = messages[j - 1];
      const ids = new Set(
        caller?.role === 'assistant'
          ? caller.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : []))
          : [],
      );
      for (const part of m.content)
        if (!ids.has(part.toolCallId)) problems.push(`orphan result ${part.toolCallId} at ${i}`);
    }
    if (m.role === 'assistant') {
      const calls = m.content.flatMap((p) => (p.type === 'tool_call' ? [p.id] : []));
      const results: string[] = [];
      for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++) {
        for (const part of (messages[j] as ToolMessage).content) results.push(part.toolCallId);
      }
      for (const id of calls) {
        const n = results.filter((r) => r === id).length;
        if (n !== 1) problems.push(`call ${id} at ${i} has ${n} results`);
      }
    }
  }
  return problems;
}

/** Provider side of a message: tool results travel on the user side. */
export const side = (m: Message) => (m.role === 'assistant' ? 'assistant' : 'user');
