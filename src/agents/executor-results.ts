/**
 * How tool outcomes enter the conversation and, when the model ends without
 * text, the answer.
 * @module
 */
import type { ToolMessage } from '../core/messages.js';
import type { ToolOutcome } from '../tools/runner.js';

/** The tool message answering one turn's calls, in call order. */
export function toolMessage(outcomes: readonly ToolOutcome[]): ToolMessage {
  const content: ToolMessage['content'] = new Array(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i]!;
    content[i] = {
      type: 'tool_result',
      toolCallId: o.toolCallId,
      toolName: o.toolName,
      content: o.content,
      isError: o.isError,
    };
  }
  return { role: 'tool', content };
}

/** The answer of a model that ended without text: its last tool results (the successful ones, if any). */
export function toolOnlyOutput(outcomes: readonly ToolOutcome[]): string {
  const ok = outcomes.filter((o) => !o.isError);
  const shown = ok.length > 0 ? ok : outcomes;
  if (shown.length === 1) return shown[0]!.output;
  return shown.map((o) => `${o.toolName}: ${o.output}`).join('\n\n');
}
