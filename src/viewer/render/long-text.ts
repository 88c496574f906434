/**
 * Long text (a tool's output, its arguments, a step's output), cut to its
 * start with a button that shows it whole.
 * @module
 */
import type { RenderContext } from './context.js';
import { h } from './dom.js';
import { count } from './format.js';

/** The text a {@link longText} shows, and how it is cut. */
export interface LongTextSpec {
  /** Its key in `ctx.expanded` (whether it is shown whole survives re-renders). */
  key: string;
  text: string;
  /** Characters shown before "Show all". */
  limit: number;
  /** The length of the original when `text` is already a clipped copy (the note says how much was not kept). Default `text.length`. */
  total?: number | undefined;
}

/**
 * A `<pre>` with the first `limit` characters of `text` and, when that cut
 * it, a button to show all of it.
 */
export function longText(spec: LongTextSpec, ctx: RenderContext): HTMLElement {
  const { key, text, limit, total = text.length } = spec;
  const pre = h('pre', { class: 'tv-pre' });
  const lost = total - text.length;
  const note =
    lost > 0 ? h('p', { class: 'tv-note' }, `${count(lost)} more characters were not kept.`) : null;
  if (text.length <= limit) {
    pre.textContent = text;
    return h('div', { class: 'tv-long' }, pre, note);
  }
  const button = h('button', { class: 'tv-link', attrs: { type: 'button' } });
  const show = () => {
    const whole = ctx.expanded.has(key);
    pre.textContent = whole ? text : `${text.slice(0, limit)}…`;
    button.textContent = whole ? 'Show less' : `Show all ${count(text.length)} characters`;
  };
  button.addEventListener('click', () => {
    if (ctx.expanded.has(key)) ctx.expanded.delete(key);
    else ctx.expanded.add(key);
    show();
  });
  show();
  return h('div', { class: 'tv-long' }, pre, button, note);
}
