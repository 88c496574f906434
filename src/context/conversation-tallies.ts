/**
 * Running token sums of conversations, shared by every context manager of a
 * `contextPerConversation` factory: a run that starts on a known history (a
 * chat's next turn, a resumed run) counts only the messages it adds, instead
 * of walking the whole history again.
 * @module
 */
import type { Message } from '../core/messages.js';
import type { TokenCounter } from './token-counter.js';

/** One conversation's messages as last counted, with the sum of tokens up to each. */
interface PrefixLog {
  messages: Message[];
  /** `sums[i]` is the tokens of `messages[0..i]`. */
  sums: number[];
  generation: number;
}

/**
 * Token sums of message prefixes, keyed by the conversation's first message.
 * Messages are immutable and conversations grow by appending, so two arrays
 * that hold the same message object at the same index share the prefix up to
 * it (the rule the counter's per-message cache relies on too).
 */
export class ConversationTallies {
  private readonly logs = new WeakMap<Message, PrefixLog>();

  constructor(private readonly counter: TokenCounter) {}

  /**
   * Tokens of `messages[from, messages.length)`. Costs the messages this
   * conversation's log has not seen, plus a step back over what the previous
   * run added after their shared prefix.
   */
  count(messages: readonly Message[], from = 0): number {
    if (messages.length <= from) return 0;
    const log = this.logOf(messages[0]!);
    const { sums } = log;
    let shared = Math.min(messages.length, log.messages.length);
    while (shared > 0 && messages[shared - 1] !== log.messages[shared - 1]) shared--;
    log.messages.length = shared;
    sums.length = shared;
    let total = shared > 0 ? sums[shared - 1]! : 0;
    for (let i = shared; i < messages.length; i++) {
      const message = messages[i]!;
      total += this.counter.countMessage(message);
      log.messages.push(message);
      sums.push(total);
    }
    return from === 0 ? total : total - sums[from - 1]!;
  }

  private logOf(first: Message): PrefixLog {
    const generation = this.counter.generation;
    let log = this.logs.get(first);
    if (!log || log.generation !== generation) {
      // Estimates counted before the encoder arrived are stale: start the sums over.
      log = { messages: [], sums: [], generation };
      this.logs.set(first, log);
    }
    return log;
  }
}
