/**
 * The usage a {@link ScriptedModel} with `estimateUsage` reports for a step
 * that scripts none: the core's token estimate of the text sent and the text
 * replied, as a provider would count them (roughly).
 * @module
 */
import { estimateTokens } from '../core/estimate.js';
import type { AssistantMessage } from '../core/messages.js';
import { emptyUsage, type Usage } from '../core/usage.js';
import type { ModelRequest } from '../model/types.js';

/** Estimated input tokens of a request: system prompt, messages and tool definitions. */
function requestTokens(request: ModelRequest): number {
  let tokens = 0;
  const system = request.system;
  if (typeof system === 'string') tokens += estimateTokens(system);
  else if (system) for (const part of system) tokens += estimateTokens(part.text);
  for (const message of request.messages) {
    if (typeof message.content === 'string') {
      tokens += estimateTokens(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') tokens += estimateTokens(part.text);
      else if (part.type === 'tool_call') tokens += estimateTokens(part.name + part.arguments);
      else if (part.type === 'tool_result') tokens += estimateTokens(part.content);
    }
  }
  // Providers bill the tool definitions as input too.
  for (const tool of request.tools ?? [])
    tokens += estimateTokens(tool.name + tool.description + JSON.stringify(tool.parameters));
  return tokens;
}

/** Estimated output tokens of a reply: its text, reasoning and tool calls. */
function replyTokens(message: AssistantMessage): { output: number; reasoning: number } {
  let output = 0;
  let reasoning = 0;
  for (const part of message.content) {
    if (part.type === 'text') output += estimateTokens(part.text);
    else if (part.type === 'reasoning') reasoning += estimateTokens(part.text);
    else if (part.type === 'tool_call') output += estimateTokens(part.name + part.arguments);
  }
  return { output: output + reasoning, reasoning };
}

/** The estimated usage of one call: `request` answered with `message`. */
export function estimateUsage(request: ModelRequest, message: AssistantMessage): Usage {
  const { output, reasoning } = replyTokens(message);
  return {
    ...emptyUsage(),
    inputTokens: requestTokens(request),
    outputTokens: output,
    reasoningTokens: reasoning,
  };
}
