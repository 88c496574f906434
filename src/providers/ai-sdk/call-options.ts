/**
 * {@link ModelRequest} → AI SDK language model call options. The system
 * prompt becomes `system` messages at the head of the prompt, the AI SDK's own
 * place for it, so every AI SDK provider puts it where its API wants it.
 * @module
 */
import type { AssistantMessage, Message, ProviderMetadata } from '../../core/messages.js';
import type { ModelRequest, SystemPart } from '../../model/types.js';
import type {
  AssistantPromptPart,
  CallOptions,
  FunctionTool,
  PromptMessage,
  ProviderOptions,
} from './types.js';

// Anthropic's AI SDK provider reads cache breakpoints from message provider options.
const CACHE_BREAKPOINT: ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };

function systemMessages(system: string | SystemPart[] | undefined): PromptMessage[] {
  if (system === undefined) return [];
  const parts = typeof system === 'string' ? [{ text: system }] : system;
  const out: PromptMessage[] = [];
  for (const part of parts) {
    if (!part.text) continue;
    const message: PromptMessage = { role: 'system', content: part.text };
    if ('cache' in part && part.cache) message.providerOptions = CACHE_BREAKPOINT;
    out.push(message);
  }
  return out;
}

// The AI SDK takes tool input as a value; text that is not JSON is passed as the string it is.
function parseInput(args: string): unknown {
  if (!args.trim()) return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function options(metadata: ProviderMetadata | undefined): { providerOptions?: ProviderOptions } {
  return metadata ? { providerOptions: metadata as ProviderOptions } : {};
}

function assistantContent(message: AssistantMessage): AssistantPromptPart[] {
  const content: AssistantPromptPart[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text) content.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      // Provider metadata (e.g. an Anthropic signature) goes back as provider options for replay.
      content.push({ type: 'reasoning', text: part.text, ...options(part.providerMetadata) });
    } else {
      content.push({
        type: 'tool-call',
        toolCallId: part.id,
        toolName: part.name,
        input: parseInput(part.arguments),
        ...options(part.providerMetadata),
      });
    }
  }
  return content;
}

function toPromptMessage(message: Message): PromptMessage {
  if (message.role === 'user') {
    const parts = typeof message.content === 'string' ? [{ text: message.content }] : message.content;
    return { role: 'user', content: parts.map((part) => ({ type: 'text', text: part.text })) };
  }
  if (message.role === 'assistant') return { role: 'assistant', content: assistantContent(message) };
  return {
    role: 'tool',
    content: message.content.map((result) => ({
      type: 'tool-result',
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      output: result.isError
        ? { type: 'error-text', value: result.content }
        : { type: 'text', value: result.content },
    })),
  };
}

function toolChoiceOf(choice: ModelRequest['toolChoice']): CallOptions['toolChoice'] {
  if (choice === undefined) return undefined;
  if (typeof choice === 'string') return { type: choice };
  return { type: 'tool', toolName: choice.name };
}

/** Builds the options of one `doGenerate` / `doStream` call (the same for every spec version). */
export function toCallOptions(request: ModelRequest, signal: AbortSignal | undefined): CallOptions {
  const call: CallOptions = {
    prompt: [...systemMessages(request.system), ...request.messages.map(toPromptMessage)],
  };
  if (request.tools?.length) {
    call.tools = request.tools.map(
      (tool): FunctionTool => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        inputSchema: tool.parameters,
      }),
    );
    const choice = toolChoiceOf(request.toolChoice);
    if (choice) call.toolChoice = choice;
  }
  if (request.responseFormat) {
    const { schema, name } = request.responseFormat;
    call.responseFormat = { type: 'json' };
    if (schema) call.responseFormat.schema = schema;
    if (name) call.responseFormat.name = name;
  }
  if (request.temperature !== undefined) call.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) call.maxOutputTokens = request.maxOutputTokens;
  if (request.stop?.length) call.stopSequences = request.stop;
  if (request.providerOptions) call.providerOptions = request.providerOptions as ProviderOptions;
  if (signal) call.abortSignal = signal;
  return call;
}
