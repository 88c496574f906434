/**
 * The browser's live page (`tandem-agents/browser`): the latest screencast
 * frame, its URL and the last action. Frames are shown only as base64 JPEG
 * or PNG `data:` images, so an event cannot put anything else in the page.
 * @module
 */
import type { BrowserView } from '../model.js';
import { h } from './dom.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png']);

/** The browser section, or nothing before the first browser event. */
export function renderBrowser(view: BrowserView | undefined): HTMLElement | null {
  if (!view) return null;
  const frame = view.frame;
  const shown = frame && IMAGE_TYPES.has(frame.mediaType) && BASE64.test(frame.data) ? frame : undefined;
  const action = view.action;
  return h(
    'section',
    { class: 'tv-card tv-browser' },
    h('h2', null, 'Browser'),
    h('p', { class: 'tv-browser-url' }, view.url ?? ''),
    action
      ? h(
          'p',
          { class: `tv-browser-action${action.ok ? '' : ' tv-bad'}` },
          `${action.action}${action.target ? ` ${action.target}` : ''}${action.ok ? '' : ' (failed)'}`,
        )
      : null,
    shown
      ? h('img', {
          class: 'tv-browser-frame',
          attrs: {
            src: `data:${shown.mediaType};base64,${shown.data}`,
            width: shown.width,
            height: shown.height,
            alt: `The browser page ${shown.url}`,
          },
        })
      : h('p', { class: 'tv-empty' }, 'No frame yet.'),
  );
}
