/**
 * A bounded conversation log (seed 001, §83): keeps the last 50 messages,
 * sends the last 10, and renders them as a "Recent Conversation" block.
 * @module
 */
import { describeMedia } from '../core/media.js';
import { type Message, textOf } from '../core/messages.js';
import { groupStartAtOrAfter, groupStartAtOrBefore } from './tool-pairs.js';

/** Options of {@link ConversationHistory}. */
export interface ConversationHistoryOptions {
  /** Messages kept; older ones are dropped. Default 50. */
  maxMessages?: number;
  /** Messages {@link ConversationHistory.recent} returns by default. Default 10. */
  recentCount?: number;
}

/**
 * The recent messages of a conversation.
 *
 * Cuts never split a tool-call group: trimming drops results whose call was
 * dropped, and {@link ConversationHistory.recent} reaches back to the call of
 * a result at its start.
 */
export class ConversationHistory {
  /** Messages kept. */
  readonly maxMessages: number;
  /** Default count of {@link ConversationHistory.recent}. */
  readonly recentCount: number;
  private log: Message[] = [];

  constructor(options: ConversationHistoryOptions = {}) {
    this.maxMessages = Math.max(1, options.maxMessages ?? 50);
    this.recentCount = Math.max(1, options.recentCount ?? 10);
  }

  /** Appends messages, dropping the oldest beyond {@link ConversationHistory.maxMessages}. */
  add(...messages: Message[]): void {
    this.log.push(...messages);
    // Also drops results left at the front after their call was trimmed by an earlier add.
    const start = groupStartAtOrAfter(this.log, Math.max(0, this.log.length - this.maxMessages));
    if (start > 0) this.log = this.log.slice(start);
  }

  /** Every kept message, oldest first (a copy). */
  messages(): Message[] {
    return this.log.slice();
  }

  /** Number of kept messages. */
  get size(): number {
    return this.log.length;
  }

  /** The last `count` messages, widened to include the call of a leading tool result. */
  recent(count = this.recentCount): Message[] {
    if (count <= 0) return [];
    const start = groupStartAtOrBefore(this.log, Math.max(0, this.log.length - count));
    return this.log.slice(start);
  }

  /**
   * The recent messages as text: `**Recent Conversation:**` then
   * `ROLE: content` blocks separated by blank lines; `''` when empty.
   */
  buildContext(count = this.recentCount): string {
    const recent = this.recent(count);
    if (recent.length === 0) return '';
    return `**Recent Conversation:**\n${recent.map(renderMessage).join('\n\n')}`;
  }

  /** Forgets every message. */
  clear(): void {
    this.log = [];
  }
}

function renderMessage(message: Message): string {
  return `${message.role.toUpperCase()}: ${renderContent(message)}`;
}

// Images and files show as placeholders: this context is text.
function renderContent(message: Message): string {
  if (message.role === 'user') {
    if (typeof message.content === 'string') return message.content;
    return message.content.map((part) => (part.type === 'text' ? part.text : describeMedia(part))).join('');
  }
  if (message.role === 'tool') {
    return message.content
      .map((part) => {
        const media = (part.attachments ?? []).map((a) => ` ${describeMedia(a)}`).join('');
        return `[${part.toolName} result] ${part.content}${media}`;
      })
      .join('\n');
  }
  const pieces: string[] = [];
  const text = textOf(message);
  if (text) pieces.push(text);
  for (const part of message.content) {
    if (part.type === 'tool_call') pieces.push(`[called ${part.name}(${part.arguments})]`);
  }
  return pieces.join('\n');
}
