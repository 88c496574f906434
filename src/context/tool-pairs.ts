/**
 * Tool-call groups: an assistant message with tool calls and the tool
 * messages holding their results. Providers reject a result without its call
 * and a call without its result (bugs B1, B2), so every cut keeps groups
 * whole and every rebuilt conversation is checked here.
 * @module
 */
import type { Message, ToolMessage, ToolResultPart } from '../core/messages.js';

/** Content of a result stubbed in for a call whose result was compacted away. */
export const MISSING_RESULT_STUB = '[Result from earlier conversation — see context summary above]';

/**
 * The nearest index at or before `index` where a conversation can be cut
 * without separating results from their call: moves left past tool messages
 * onto the assistant message that called them.
 */
export function groupStartAtOrBefore(messages: readonly Message[], index: number): number {
  let i = index;
  while (i > 0 && messages[i]?.role === 'tool') i--;
  return i;
}

/** The nearest index at or after `index` that does not hold tool results (may be `messages.length`). */
export function groupStartAtOrAfter(messages: readonly Message[], index: number): number {
  let i = index;
  while (i < messages.length && messages[i]?.role === 'tool') i++;
  return i;
}

/**
 * Makes every tool call and result paired, right where providers want them:
 * results must follow their assistant message directly. Drops results whose
 * call is missing (and tool messages left empty), and adds a
 * {@link MISSING_RESULT_STUB} for each call without a result. Returns the input
 * array itself when nothing needed fixing; never modifies it.
 */
export function sanitizeToolPairs(messages: readonly Message[]): readonly Message[] {
  let out: Message[] | undefined;
  const replace = (upTo: number) => (out ??= messages.slice(0, upTo));
  let i = 0;
  while (i < messages.length) {
    const message = messages[i]!;
    if (message.role === 'tool') {
      // A tool message not directly after its calling assistant: every result is an orphan.
      replace(i);
      i++;
      continue;
    }
    out?.push(message);
    i++;
    if (message.role !== 'assistant') continue;
    const pending = new Map<string, string>();
    for (const part of message.content) if (part.type === 'tool_call') pending.set(part.id, part.name);
    if (pending.size === 0) continue;
    const runStart = i;
    const results: ToolMessage[] = [];
    let changed = false;
    for (; i < messages.length && messages[i]!.role === 'tool'; i++) {
      const tool = messages[i] as ToolMessage;
      const kept = tool.content.filter((part) => pending.delete(part.toolCallId));
      if (kept.length !== tool.content.length) changed = true;
      if (kept.length > 0)
        results.push(kept.length === tool.content.length ? tool : { role: 'tool', content: kept });
    }
    if (pending.size > 0) {
      changed = true;
      const stubs: ToolResultPart[] = [...pending].map(([toolCallId, toolName]) => ({
        type: 'tool_result',
        toolCallId,
        toolName,
        content: MISSING_RESULT_STUB,
      }));
      const last = results.pop();
      results.push({ role: 'tool', content: [...(last?.content ?? []), ...stubs] });
    }
    if (changed) replace(runStart);
    out?.push(...results);
  }
  return out ?? messages;
}
