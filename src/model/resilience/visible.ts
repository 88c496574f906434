/**
 * What counts as output the user has seen. A failure after visible output is
 * never retried behind the caller's back (a second call would show it
 * again); whitespace is not visible output, so a stream that delivered only
 * blanks before failing is retried like one that delivered nothing (seed §3
 * scenario 25, hermes #113135).
 * @module
 */
import type { ModelResponse, ModelStreamPart } from '../types.js';

const NON_BLANK = /\S/;

/** True for a part the caller has seen as output: non-blank text or reasoning, or a tool call. */
export function isVisiblePart(part: ModelStreamPart): boolean {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return NON_BLANK.test(part.delta);
    case 'tool-call-delta':
    case 'tool-call':
      return true;
    default:
      return false;
  }
}

/** True when a streamed reply put non-blank text or reasoning on screen. */
export function showedSomething(response: ModelResponse): boolean {
  for (const part of response.message.content) {
    if (part.type !== 'tool_call' && NON_BLANK.test(part.text)) return true;
  }
  return false;
}
