/**
 * Conversation messages as Gemini `contents`. Every `thoughtSignature` goes
 * back on the part that carried it: function calls keep theirs in
 * `providerMetadata.gemini`; a signature that came on a text part is held by
 * an empty reasoning part placed where it arrived, and rejoins the part that
 * follows it. Function responses are matched to their calls by name.
 * @module
 */
import type { AssistantMessage, Message, ReasoningPart } from '../../core/messages.js';
import type { MediaContext } from '../shared/media.js';
import { toolInputObject } from '../shared/tool-input.js';
import { attachmentParts, userParts } from './media.js';
import type { GeminiContent, GeminiPart } from './wire.js';

/** What `providerMetadata.gemini` holds on reasoning and tool-call parts. */
export interface GeminiPartMetadata {
  /** The signature Gemini attached to the part; required back on function calls (Gemini 3). */
  thoughtSignature?: string;
  /** True on thought parts (`thought: true`); absent on the empty part that holds a text part's signature. */
  thought?: boolean;
  /** Gemini's own id of a function call, when it sent one. */
  functionCallId?: string;
}

function geminiMeta(part: {
  providerMetadata?: Record<string, Record<string, unknown>>;
}): GeminiPartMetadata | undefined {
  return part.providerMetadata?.gemini as GeminiPartMetadata | undefined;
}

function reasoningPart(part: ReasoningPart, meta: GeminiPartMetadata): GeminiPart {
  const out: GeminiPart = { text: part.text, thought: true };
  if (meta.thoughtSignature) out.thoughtSignature = meta.thoughtSignature;
  return out;
}

function modelParts(message: AssistantMessage): GeminiPart[] {
  const parts: GeminiPart[] = [];
  let pending: string | undefined;
  const flush = () => {
    if (pending) parts.push({ text: '', thoughtSignature: pending });
    pending = undefined;
  };
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      const meta = geminiMeta(part);
      // Reasoning of other providers cannot be verified by Gemini and is left out.
      if (!meta) continue;
      if (meta.thought) {
        flush();
        parts.push(reasoningPart(part, meta));
      } else if (meta.thoughtSignature) {
        flush();
        pending = meta.thoughtSignature;
      }
    } else if (part.type === 'text') {
      if (!part.text && !pending) continue;
      const out: GeminiPart = { text: part.text };
      if (pending) out.thoughtSignature = pending;
      pending = undefined;
      parts.push(out);
    } else {
      const meta = geminiMeta(part);
      const call: GeminiPart = { functionCall: { name: part.name, args: toolInputObject(part.arguments) } };
      if (meta?.functionCallId && call.functionCall) call.functionCall.id = meta.functionCallId;
      const signature = meta?.thoughtSignature ?? pending;
      if (!meta?.thoughtSignature) pending = undefined;
      flush();
      if (signature) call.thoughtSignature = signature;
      parts.push(call);
    }
  }
  flush();
  return parts;
}

/**
 * Converts tandem messages to Gemini `contents` (new objects; the input is never touched).
 * @param media - who maps images and files, for checks and errors.
 * @throws ModelError `bad_request` for an image or file the model cannot take.
 */
export function toGeminiContents(
  messages: Message[],
  media: MediaContext = { provider: 'gemini', model: 'unknown' },
): GeminiContent[] {
  const out: GeminiContent[] = [];
  // Responses are matched by name; Gemini's own call ids, where it sent them, go back too.
  const calls = new Map<string, { name: string; geminiId?: string }>();
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  messages.forEach((message, index) => {
    if (message.role === 'user') {
      push('user', userParts(message, index, media));
    } else if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool_call')
          calls.set(part.id, { name: part.name, geminiId: geminiMeta(part)?.functionCallId });
      }
      push('model', modelParts(message));
    } else {
      push(
        'user',
        message.content.map((result) => {
          const response = result.isError ? { error: result.content } : { output: result.content };
          const call = calls.get(result.toolCallId);
          const part: GeminiPart = {
            functionResponse: { name: result.toolName || call?.name || '', response },
          };
          if (call?.geminiId && part.functionResponse) part.functionResponse.id = call.geminiId;
          return part;
        }),
      );
      push('user', attachmentParts(message.content, index, media));
    }
  });
  return out;
}
