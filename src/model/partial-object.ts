/**
 * The value of a JSON answer while it streams: text deltas are collected and
 * re-parsed with {@link parsePartialJson} only when they can have changed the
 * value, and each value that differs from the last one reported is reported.
 * @module
 */
import { parsePartialJson } from './partial-json.js';
import type { ModelStreamPart } from './types.js';

/** Characters of string content after which the value is parsed again, structural characters or not. */
export const PARTIAL_PARSE_EVERY = 32;

// Characters that end or open a value; a delta without one only grows a string or a number.
const STRUCTURAL = /[[\]{},:"]/;

/**
 * A stream-part listener (for `InvokeOptions.onPart`) calling `onObject`
 * with the answer's value each time it changes, the last time at the
 * `finish` part. A delta is parsed when it holds a structural character or
 * {@link PARTIAL_PARSE_EVERY} characters arrived since the last parse, and
 * never before a sixteenth of the text has arrived since — so a long answer
 * costs a bounded number of parses per character, however small its deltas.
 */
export function watchPartialObject(onObject: (value: unknown) => void): (part: ModelStreamPart) => void {
  let text = '';
  let parsedAt = 0;
  let last: string | undefined;
  const parse = () => {
    parsedAt = text.length;
    const parsed = parsePartialJson(text);
    if (!parsed) return;
    const json = JSON.stringify(parsed.value);
    if (json === last) return;
    last = json;
    onObject(parsed.value);
  };
  return (part) => {
    if (part.type === 'finish') {
      if (parsedAt < text.length) parse();
      return;
    }
    if (part.type !== 'text-delta' || !part.delta) return;
    text += part.delta;
    const since = text.length - parsedAt;
    if (since < text.length >> 4) return;
    if (since < PARTIAL_PARSE_EVERY && !STRUCTURAL.test(part.delta)) return;
    parse();
  };
}
