/**
 * Calls the summariser model: the middle of a conversation, folded into an
 * earlier summary, in chunks the summariser can take.
 * @module
 */
import { abortable } from '../core/abortable.js';
import { AbortError, TandemError } from '../core/errors.js';
import { type Message, textOf } from '../core/messages.js';
import type { ChatModel } from '../model/types.js';
import { smartTruncate } from './smart-truncate.js';
import { serializeMessage, summaryRequest } from './summary-prompt.js';
import type { TokenCounter } from './token-counter.js';

/** The summariser gave nothing usable. */
export class SummaryError extends TandemError<'empty_summary'> {
  static override readonly brand: string = 'SummaryError';
}

/** What {@link summarizeTurns} needs. */
export interface SummarizeOptions {
  summarizer: ChatModel;
  counter: TokenCounter;
  /** Body of the summary the turns continue, updated rather than summarised again. */
  previous: string | undefined;
  /** Output tokens the summary may use. */
  maxTokens: number;
  /** Characters of turns per summariser call. */
  inputChars: number;
  signal?: AbortSignal;
}

/**
 * The summary body of `turns` (folded into `previous`). Throws
 * {@link SummaryError} when the summariser answers with nothing, and the
 * summariser's own error when it fails.
 */
export async function summarizeTurns(turns: readonly Message[], options: SummarizeOptions): Promise<string> {
  const { summarizer, maxTokens, signal } = options;
  let summary = options.previous;
  for (const chunk of chunkTurns(turns.map(serializeMessage), options.inputChars)) {
    if (signal?.aborted) throw new AbortError(signal.reason);
    const response = await abortable(
      summarizer.generate(summaryRequest(chunk, summary, maxTokens), { signal }),
      signal,
    );
    const text = textOf(response.message).trim();
    if (!text) throw new SummaryError('empty_summary', 'the summarizer returned no text');
    summary = text;
  }
  if (summary === undefined) throw new SummaryError('empty_summary', 'nothing to summarise');
  // A summariser that ignores maxOutputTokens must not undo the compression.
  return options.counter.countText(summary) > maxTokens * 1.25
    ? smartTruncate(summary, maxTokens * 4)
    : summary;
}

function* chunkTurns(turns: readonly string[], maxChars: number): Generator<string> {
  let chunk: string[] = [];
  let size = 0;
  for (const turn of turns) {
    if (!turn) continue;
    if (chunk.length > 0 && size + turn.length > maxChars) {
      yield chunk.join('\n\n');
      chunk = [];
      size = 0;
    }
    chunk.push(turn.length > maxChars ? turn.slice(0, maxChars) : turn);
    size += turn.length + 2;
  }
  if (chunk.length > 0) yield chunk.join('\n\n');
}
