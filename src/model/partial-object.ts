/**
 * The value of a JSON answer while it streams: each text delta is fed once
 * to an incremental parser, and a copy of the value read so far is reported
 * whenever it changed and enough text arrived since the last copy.
 * @module
 */
import { PartialJsonReader } from './partial-json-reader.js';
import type { ModelStreamPart } from './types.js';

/** Characters of string content after which the value is copied again, structural characters or not. */
export const PARTIAL_PARSE_EVERY = 32;

// Characters that end or open a value; a delta without one only grows a string or a number.
const STRUCTURAL = /[[\]{},:"]/;

/**
 * A stream-part listener (for `InvokeOptions.onPart`) calling `onObject`
 * with a copy of the answer's value each time it changes, the last time at
 * the `finish` part. Each value reported extends the one before, as
 * `parsePartialJson` reads a longer prefix. The parser reads each character
 * once, and only up to the value's end. A copy is taken when a delta holds
 * a structural character or {@link PARTIAL_PARSE_EVERY} characters arrived
 * since the last copy, and never before a sixteenth of the text has arrived
 * since — so the copies of a long answer cost a bounded amount per
 * character, however small its deltas.
 */
export function watchPartialObject(onObject: (value: unknown) => void): (part: ModelStreamPart) => void {
  const reader = new PartialJsonReader();
  // Text not yet handed to the reader: it reads in the pieces between copies, fewer calls for the same characters.
  let unread = '';
  let length = 0;
  let copiedAt = 0;
  let version = -1;
  let last: string | undefined;
  const report = () => {
    copiedAt = length;
    reader.write(unread);
    unread = '';
    if (reader.version === version) return;
    version = reader.version;
    const json = reader.json();
    if (json === undefined || json === last) return;
    last = json;
    onObject(JSON.parse(json));
  };
  return (part) => {
    if (part.type === 'finish') {
      if (copiedAt < length) report();
      return;
    }
    if (part.type !== 'text-delta' || !part.delta || reader.settled) return;
    unread += part.delta;
    length += part.delta.length;
    const since = length - copiedAt;
    if (since < length >> 4) return;
    if (since < PARTIAL_PARSE_EVERY && !STRUCTURAL.test(part.delta)) return;
    report();
  };
}
