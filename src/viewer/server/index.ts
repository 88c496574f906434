/**
 * `tandem-agents/viewer/server`: the live run viewer's server part — a
 * Fetch-API handler serving the page, each run's events as SSE, the run list
 * and the answers to its questions, plus a tiny adapter for Node's `http`.
 * Runs on any runtime (Node, Bun, Deno, edge): no `node:` imports.
 * @packageDocumentation
 */
export { ViewerError, type ViewerErrorKind } from '../errors.js';
export type { ErrorBody, RunDetails, RunSummary } from '../protocol.js';
export { TOKEN_HEADER } from '../protocol.js';
export type { ViewerAssets } from './assets.js';
export { createViewerHandler, type ViewerHandler, type ViewerHandlerOptions } from './handler.js';
export { pageHtml, VIEWER_CSP } from './html.js';
export {
  type NodeListenerOptions,
  type NodeRequestLike,
  type NodeResponseLike,
  toNodeListener,
} from './node.js';
export type { ShownRun, TrackableRun } from './runs.js';
