/**
 * Registers the viewer's custom elements. A function rather than an import
 * side effect: the package is `sideEffects: false`, so a bundler would drop a
 * bare `import 'tandem-agents/viewer'`.
 * @module
 */
import { RunViewerElement } from './run-viewer.js';
import { ViewerAppElement } from './viewer-app.js';

/** The tag names: one run, and the whole page (run list and selected run). */
export const VIEWER_ELEMENTS = { run: 'tandem-run-viewer', app: 'tandem-viewer' } as const;

/** What {@link defineViewerElements} needs of a registry: `customElements` has it. */
export interface ElementRegistry {
  get(name: string): unknown;
  define(name: string, element: never): void;
}

/**
 * Defines `<tandem-run-viewer>` and `<tandem-viewer>` on `registry` (default:
 * the page's `customElements`); a name already defined is left alone, so
 * calling it twice is harmless.
 */
export function defineViewerElements(registry?: ElementRegistry): void {
  const target = registry ?? (globalThis as { customElements?: ElementRegistry }).customElements;
  if (!target) return;
  if (!target.get(VIEWER_ELEMENTS.run)) target.define(VIEWER_ELEMENTS.run, RunViewerElement as never);
  if (!target.get(VIEWER_ELEMENTS.app)) target.define(VIEWER_ELEMENTS.app, ViewerAppElement as never);
}
