/**
 * Reasoning that a server inlines in the reply text as a leading
 * `<think>…</think>` block (DeepSeek-R1 and Qwen3 served by vLLM, Ollama,
 * llama.cpp without a reasoning parser) is reasoning, not answer: shown to
 * the model as text it would be replayed, scored as the answer and leak
 * into structured output. An unclosed block is all reasoning, so the reply
 * has no answer and the executor asks again.
 * @module
 */

const OPEN = '<think>';
const CLOSE = '</think>';

/** A whole reply's text split into its leading reasoning and the answer. */
export function splitThink(text: string): { reasoning?: string; text: string } {
  const start = text.trimStart();
  if (!start.startsWith(OPEN)) return { text };
  const end = start.indexOf(CLOSE, OPEN.length);
  if (end === -1) return { reasoning: start.slice(OPEN.length), text: '' };
  return { reasoning: start.slice(OPEN.length, end), text: start.slice(end + CLOSE.length).trimStart() };
}

/** The same split over text deltas, one instance per stream. */
export class ThinkTagSplitter {
  private state: 'start' | 'thinking' | 'text' = 'start';
  private held = '';

  /** Splits one delta; text that could still be a tag is held for the next. */
  push(delta: string): { reasoning?: string; text?: string } {
    if (this.state === 'text') return { text: delta };
    this.held += delta;
    if (this.state === 'start') {
      const start = this.held.trimStart();
      // Not yet enough text to tell whether the reply opens with <think>.
      if (start.length < OPEN.length && OPEN.startsWith(start)) return {};
      if (!start.startsWith(OPEN)) return this.release('text', this.held);
      this.state = 'thinking';
      this.held = start.slice(OPEN.length);
    }
    const end = this.held.indexOf(CLOSE);
    if (end !== -1) {
      const reasoning = this.held.slice(0, end);
      const rest = this.held.slice(end + CLOSE.length).trimStart();
      this.state = 'text';
      this.held = '';
      return { ...(reasoning ? { reasoning } : {}), ...(rest ? { text: rest } : {}) };
    }
    // Keep back what could be the start of </think>.
    const keep = partialSuffix(this.held, CLOSE);
    const reasoning = this.held.slice(0, this.held.length - keep);
    this.held = this.held.slice(this.held.length - keep);
    return reasoning ? { reasoning } : {};
  }

  /** What is still held when the stream ends. */
  end(): { reasoning?: string; text?: string } {
    const held = this.held;
    this.held = '';
    if (!held) return {};
    return this.state === 'thinking' ? { reasoning: held } : { text: held };
  }

  private release(state: 'text', text: string): { text?: string } {
    this.state = state;
    this.held = '';
    return text ? { text } : {};
  }
}

/** Length of the longest end of `text` that begins `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
