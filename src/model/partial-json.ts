/**
 * `parsePartialJson`: the value a JSON text cut off mid-stream stands for so
 * far, completed by `jsonrepair` (it closes open strings, arrays and
 * objects). A key still being written, and a `true` / `false` / `null` not
 * yet whole, are left out until their value starts: `jsonrepair` would read
 * them as `"key": null` or the string `"tr"`.
 * @module
 */
import { jsonrepair } from 'jsonrepair';

// A trailing member whose key or literal value is unfinished: `, "ke`, `{"key": `, `"key": tr`.
const OPEN_MEMBER = /([{,])\s*"(?:[^"\\]|\\.)*(?:"\s*(?::\s*(?:t|tr|tru|f|fa|fal|fals|n|nu|nul)?)?)?\s*$/;
// Only the tail can hold an unfinished member; matching there keeps every call linear.
const TAIL = 256;

/**
 * The value of `text`, a prefix of a JSON value possibly after prose or a
 * code fence, or `undefined` while it holds none yet. Never throws.
 *
 * ```ts
 * parsePartialJson('{"name": "Ada", "tags": ["ma'); // { name: 'Ada', tags: ['ma'] }
 * ```
 */
export function parsePartialJson(text: string): { value: unknown } | undefined {
  const start = text.search(/[[{]/);
  if (start < 0) return undefined;
  let json = text.slice(start);
  const tailFrom = Math.max(0, json.length - TAIL);
  const open = OPEN_MEMBER.exec(json.slice(tailFrom));
  if (open) json = json.slice(0, tailFrom + open.index + (open[1] === '{' ? 1 : 0));
  try {
    return { value: JSON.parse(jsonrepair(json)) };
  } catch {
    return undefined;
  }
}
