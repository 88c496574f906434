/**
 * `parsePartialJson`: the value a JSON text cut off mid-stream stands for so
 * far, read by the same incremental parser that streams partial objects
 * (see `watchPartialObject`).
 * @module
 */
import { PartialJsonReader } from './partial-json-reader.js';

/**
 * The value of `text`, a prefix of a JSON object or array possibly after
 * prose or a code fence, or `undefined` while it holds none yet. Never throws.
 *
 * Open strings, arrays and objects are closed. A key still being written,
 * and a `true` / `false` / `null` not yet whole, are left out until their
 * value starts; a number shows the digits that arrived. So the value of a
 * longer prefix always extends the value of a shorter one. The text is read
 * as strict JSON: where it stops being JSON (a comment, a trailing comma,
 * single quotes), the value is what was read before; text after the value
 * closes is ignored.
 *
 * ```ts
 * parsePartialJson('{"name": "Ada", "tags": ["ma'); // { value: { name: 'Ada', tags: ['ma'] } }
 * parsePartialJson('{"done": tr'); // { value: {} }
 * ```
 */
export function parsePartialJson(text: string): { value: unknown } | undefined {
  const reader = new PartialJsonReader();
  reader.write(text);
  const json = reader.json();
  return json === undefined ? undefined : { value: JSON.parse(json) };
}
