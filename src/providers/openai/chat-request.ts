/**
 * Maps a {@link ModelRequest} to a Chat Completions request body.
 * @module
 */
import type { AssistantMessage, Message } from '../../core/messages.js';
import type { ModelRequest, SystemPart, ToolChoice } from '../../model/types.js';
import type { MediaContext } from '../shared/media.js';
import { MediaBudget, type MediaLimits } from '../shared/media-limits.js';
import { attachmentsMessage, chatUserMessage, type PlacedResult } from './chat-media.js';
import type { OpenAIChatSettings, ReplayReasoning } from './chat-settings.js';
import type { WireMessage, WireToolCall } from './chat-wire.js';

/** What the body depends on besides the request. */
export interface ChatBodyContext {
  modelId: string;
  /** Provider name: `providerOptions[provider]` is merged as well as `providerOptions.openai`. */
  provider: string;
  settings: OpenAIChatSettings;
  maxTokensParam: 'max_tokens' | 'max_completion_tokens';
  /** The server's size limits for inline images and files, when known (OpenAI's own API). */
  mediaLimits?: MediaLimits;
}

/** The system prompt as one string (blocks joined by blank lines), or `undefined` when empty. */
export function systemText(system: string | SystemPart[] | undefined): string | undefined {
  if (system === undefined) return undefined;
  const text = typeof system === 'string' ? system : system.map((part) => part.text).join('\n\n');
  return text ? text : undefined;
}

function shouldReplay(mode: ReplayReasoning, hasCalls: boolean): boolean {
  return mode === 'always' || (mode === 'auto' && hasCalls);
}

function assistantMessage(message: AssistantMessage, replay: ReplayReasoning): WireMessage {
  let text = '';
  let reasoning = '';
  const calls: WireToolCall[] = [];
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') reasoning += part.text;
    else {
      calls.push({
        id: part.id,
        type: 'function',
        // Servers reject an empty string as arguments; a call without any means "no arguments".
        function: { name: part.name, arguments: part.arguments || '{}' },
      });
    }
  }
  const out: WireMessage = {
    role: 'assistant',
    content: text || (calls.length > 0 ? null : ''),
  };
  if (calls.length > 0) out.tool_calls = calls;
  if (reasoning && shouldReplay(replay, calls.length > 0)) out.reasoning_content = reasoning;
  return out;
}

/**
 * Maps conversation messages to wire messages; each tool result becomes its
 * own `tool` message, and the attachments of consecutive tool messages one
 * user message after them (a user message between tool messages would cut
 * results off from their calls).
 * @throws ModelError `bad_request` for an image or file the server or model cannot take.
 */
export function toWireMessages(
  messages: Message[],
  replay: ReplayReasoning,
  media: MediaContext = { provider: 'openai', model: 'unknown' },
): WireMessage[] {
  const out: WireMessage[] = [];
  let results: PlacedResult[] = [];
  const flush = () => {
    const attachments = attachmentsMessage(results, media);
    if (attachments) out.push(attachments);
    results = [];
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      for (const result of message.content) {
        out.push({ role: 'tool', tool_call_id: result.toolCallId, content: result.content });
        results.push({ result, message: index });
      }
      return;
    }
    flush();
    out.push(
      message.role === 'user' ? chatUserMessage(message, index, media) : assistantMessage(message, replay),
    );
  });
  flush();
  return out;
}

function toolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** The request body; `stream` adds `stream: true` and, unless disabled, the usage chunk. */
export function chatRequestBody(
  request: ModelRequest,
  ctx: ChatBodyContext,
  stream: boolean,
): Record<string, unknown> {
  const { settings } = ctx;
  const messages: WireMessage[] = [];
  const system = systemText(request.system);
  if (system) messages.push({ role: 'system', content: system });
  const media: MediaContext = {
    provider: ctx.provider,
    model: ctx.modelId,
    accepts: settings.info?.inputMediaTypes,
  };
  if (ctx.mediaLimits) media.budget = new MediaBudget(ctx.mediaLimits);
  messages.push(...toWireMessages(request.messages, settings.replayReasoning ?? 'auto', media));

  const body: Record<string, unknown> = { model: ctx.modelId, messages };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    if (request.toolChoice) body.tool_choice = toolChoice(request.toolChoice);
    if (settings.parallelToolCalls !== undefined) body.parallel_tool_calls = settings.parallelToolCalls;
  }
  const format = request.responseFormat;
  if (format?.schema) {
    const jsonSchema: Record<string, unknown> = { name: format.name ?? 'response' };
    if (format.description) jsonSchema.description = format.description;
    jsonSchema.schema = format.schema;
    jsonSchema.strict = settings.strictJsonSchema ?? false;
    body.response_format = { type: 'json_schema', json_schema: jsonSchema };
  } else if (format) {
    body.response_format = { type: 'json_object' };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) body[ctx.maxTokensParam] = request.maxOutputTokens;
  if (request.stop && request.stop.length > 0) body.stop = request.stop;
  if (stream) {
    body.stream = true;
    if (settings.streamUsage ?? true) body.stream_options = { include_usage: true };
  }
  Object.assign(body, settings.extraBody, request.providerOptions?.openai);
  if (ctx.provider !== 'openai') Object.assign(body, request.providerOptions?.[ctx.provider]);
  return body;
}
