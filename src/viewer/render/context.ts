/**
 * What section renderers share with the element that hosts them.
 * @module
 */
import type { InterruptView } from '../../core/events.js';

/** An answer to a question, as the interrupt bus takes it. */
export interface Answer {
  action: string;
  value?: unknown;
}

/** The outcome of sending an answer, shown under the question. */
export interface AnswerOutcome {
  ok: boolean;
  message: string;
}

/** UI state that outlives a re-render, and the element's services. */
export interface RenderContext {
  /** Keys of the open `<details>` (tool rows, reasoning). */
  open: Set<string>;
  /** Keys of the long texts shown whole. */
  expanded: Set<string>;
  /** Questions already answered from this page, with what was sent and how it went. */
  sent: Map<string, string>;
  /** Sends an answer; absent when the view cannot answer (a replay, no token). */
  answer?: (interrupt: InterruptView, answer: Answer) => Promise<AnswerOutcome>;
  /** Asks for a re-render of the sections whose UI state changed. */
  invalidate(): void;
}
