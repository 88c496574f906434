/**
 * {@link ModelRequest} → AI SDK language model call options. The system
 * prompt becomes `system` messages at the head of the prompt, the AI SDK's own
 * place for it, so every AI SDK provider puts it where its API wants it.
 * @module
 */
import type {
  AssistantMessage,
  Message,
  ProviderMetadata,
  ToolResultPart,
  UserMessage,
} from '../../core/messages.js';
import type { ModelRequest, SystemPart } from '../../model/types.js';
import { attachmentPath, checkMedia, type MediaContext, mediaError, userPartPath } from '../shared/media.js';
import type { SpecDialect } from './dialects.js';
import type {
  AssistantPromptPart,
  CallOptions,
  FileDataV2,
  FileDataV4,
  FunctionTool,
  PromptMessage,
  ProviderOptions,
  ToolContentV2,
  ToolContentV3,
  ToolContentV4,
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

/** How a call maps images and files: the model's spec version, and who to name in errors. */
export interface MediaMapping {
  dialect: SpecDialect;
  media: MediaContext;
}

type AnyPromptMessage = PromptMessage<FileDataV2 | FileDataV4, ToolContentV2 | ToolContentV3 | ToolContentV4>;
type AnyToolResult = Extract<AnyPromptMessage, { role: 'tool' }>['content'][number];

function userMessage(
  message: UserMessage,
  index: number,
  { dialect, media }: MediaMapping,
): AnyPromptMessage {
  if (typeof message.content === 'string') {
    return { role: 'user', content: [{ type: 'text', text: message.content }] };
  }
  return {
    role: 'user',
    content: message.content.map((part, i) => {
      if (part.type === 'text') return { type: 'text', text: part.text };
      checkMedia(part, userPartPath(index, i), media);
      return dialect.userFile(part);
    }),
  };
}

// A result with attachments is a content list (the error flag has no place there: its text says so).
function toolResult(result: ToolResultPart, index: number, { dialect, media }: MediaMapping): AnyToolResult {
  const head = { type: 'tool-result' as const, toolCallId: result.toolCallId, toolName: result.toolName };
  const attachments = result.attachments ?? [];
  if (attachments.length === 0) {
    const type = result.isError ? ('error-text' as const) : ('text' as const);
    return { ...head, output: { type, value: result.content } };
  }
  const value: Array<ToolContentV2 | ToolContentV3 | ToolContentV4> = [];
  if (result.content) value.push({ type: 'text', text: result.content });
  attachments.forEach((part, i) => {
    const where = attachmentPath(index, result, i);
    checkMedia(part, where, media);
    const item = dialect.toolFile(part);
    if (!item)
      throw mediaError(media, { part, where }, 'this AI SDK version takes tool-result media as data only');
    value.push(item);
  });
  return { ...head, output: { type: 'content', value } } as AnyToolResult;
}

function toPromptMessage(message: Message, index: number, mapping: MediaMapping): AnyPromptMessage {
  if (message.role === 'user') return userMessage(message, index, mapping);
  if (message.role === 'assistant') return { role: 'assistant', content: assistantContent(message) };
  return { role: 'tool', content: message.content.map((result) => toolResult(result, index, mapping)) };
}

function toolChoiceOf(choice: ModelRequest['toolChoice']): CallOptions['toolChoice'] {
  if (choice === undefined) return undefined;
  if (typeof choice === 'string') return { type: choice };
  return { type: 'tool', toolName: choice.name };
}

/**
 * Builds the options of one `doGenerate` / `doStream` call; images and files
 * take the shape of `mapping.dialect`'s spec version. `mapping` is the model's,
 * made once, not per call.
 * @throws ModelError `bad_request` for an image or file the version or model cannot take.
 */
export function toCallOptions(
  request: ModelRequest,
  signal: AbortSignal | undefined,
  mapping: MediaMapping,
): CallOptions {
  const prompt: AnyPromptMessage[] = [
    ...systemMessages(request.system),
    ...request.messages.map((message, index) => toPromptMessage(message, index, mapping)),
  ];
  // The dialect made every file part of one version's shape, so the options are that version's.
  const call = { prompt } as CallOptions;
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
    const { schema, name, description } = request.responseFormat;
    call.responseFormat = { type: 'json' };
    if (schema) call.responseFormat.schema = schema;
    if (name) call.responseFormat.name = name;
    if (description) call.responseFormat.description = description;
  }
  if (request.temperature !== undefined) call.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) call.maxOutputTokens = request.maxOutputTokens;
  if (request.stop?.length) call.stopSequences = request.stop;
  if (request.providerOptions) call.providerOptions = request.providerOptions as ProviderOptions;
  if (signal) call.abortSignal = signal;
  return call;
}
