/**
 * Prompt-cache breakpoints. Anthropic caches the prompt prefix up to each
 * block marked with `cache_control` and rejects a request with more than four
 * markers (seed-behaviours §51–52, bug B9: proxies and repeated application
 * pushed requests over the limit). Existing markers are stripped first, so
 * applying twice gives the same request, and only copies are marked.
 * @module
 */
import type { AnthropicBlock, AnthropicMessage, AnthropicTextBlock, CacheControl } from './wire.js';

/** The most `cache_control` markers one request may carry. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** How breakpoints are placed. */
export interface CacheOptions {
  /** Cache lifetime: `'5m'` (default) or `'1h'` (writes cost more, reads survive longer pauses). */
  ttl?: '5m' | '1h';
  /** Markers on the last messages that can carry one (default 3; the system prompt keeps at least one). */
  messages?: number;
}

/** The parts of a request that carry markers. */
export interface CacheTarget {
  system?: AnthropicTextBlock[];
  messages: AnthropicMessage[];
  /** Indices of system blocks the caller flagged (`SystemPart.cache`); default: the last block. */
  systemBreakpoints?: number[];
}

function marker(ttl: CacheOptions['ttl']): CacheControl {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

function unmarked<T extends AnthropicBlock>(block: T): T {
  if (!('cache_control' in block)) return block;
  const { cache_control: _dropped, ...rest } = block as T & { cache_control?: CacheControl };
  return rest as T;
}

// Thinking blocks cannot carry a marker; the breakpoint goes on the last block that can.
function markableIndex(blocks: AnthropicBlock[]): number {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as AnthropicBlock;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if (block.type === 'text' && !block.text) continue;
    return i;
  }
  return -1;
}

function blocksOf(message: AnthropicMessage): AnthropicBlock[] {
  if (typeof message.content === 'string') {
    return message.content ? [{ type: 'text', text: message.content }] : [];
  }
  return message.content.map(unmarked);
}

function stripMessage(message: AnthropicMessage): AnthropicMessage {
  if (typeof message.content === 'string') return { role: message.role, content: message.content };
  return { role: message.role, content: message.content.map(unmarked) };
}

/**
 * Returns copies of `target.system` and `target.messages` carrying at most
 * {@link MAX_CACHE_BREAKPOINTS} markers: the flagged (or last) system block
 * and the last `options.messages` markable messages. Markers already present
 * are removed first. The input is never modified.
 */
export function applyCacheBreakpoints(
  target: CacheTarget,
  options: CacheOptions = {},
): { system?: AnthropicTextBlock[]; messages: AnthropicMessage[] } {
  const mark = marker(options.ttl);
  const system = target.system?.map(unmarked);
  const messages = target.messages.map(stripMessage);

  const flagged = (target.systemBreakpoints ?? []).filter((i) => system?.[i]?.text);
  const systemCandidates = flagged.length > 0 ? flagged : system?.length ? [system.length - 1] : [];
  const wanted = Math.max(0, options.messages ?? 3);
  const messageBudget = Math.min(wanted, MAX_CACHE_BREAKPOINTS - (systemCandidates.length > 0 ? 1 : 0));

  let used = 0;
  for (let i = messages.length - 1; i >= 0 && used < messageBudget; i--) {
    const message = messages[i] as AnthropicMessage;
    const blocks = blocksOf(message);
    const at = markableIndex(blocks);
    if (at < 0) continue;
    blocks[at] = { ...(blocks[at] as AnthropicBlock), cache_control: mark } as AnthropicBlock;
    messages[i] = { role: message.role, content: blocks };
    used++;
  }

  const systemKeep = MAX_CACHE_BREAKPOINTS - used;
  if (system && systemKeep > 0) {
    for (const i of systemCandidates.slice(-systemKeep)) {
      system[i] = { ...(system[i] as AnthropicTextBlock), cache_control: mark };
    }
  }
  return system ? { system, messages } : { messages };
}

/** Number of `cache_control` markers in a request's system and messages. */
export function countCacheBreakpoints(request: {
  system?: AnthropicTextBlock[];
  messages: AnthropicMessage[];
}): number {
  let n = 0;
  for (const block of request.system ?? []) if (block.cache_control) n++;
  for (const message of request.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) if ('cache_control' in block && block.cache_control) n++;
  }
  return n;
}
