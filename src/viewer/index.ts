/**
 * `tandem-agents/viewer`: the live run viewer for the browser. Custom
 * elements (`<tandem-run-viewer>` for one run, `<tandem-viewer>` for the page
 * with the run list), the replay of event logs and saved states, and the
 * state they render. Imports neither zod nor js-tiktoken; the server part is
 * `tandem-agents/viewer/server`.
 *
 * ```ts
 * import { defineViewerElements } from 'tandem-agents/viewer';
 * defineViewerElements();
 * // <tandem-run-viewer src="/viewer/api/runs/run_1/events"></tandem-run-viewer>
 * ```
 * @packageDocumentation
 */
export { defineViewerElements, type ElementRegistry, VIEWER_ELEMENTS } from './define.js';
export { ViewerError, type ViewerErrorKind } from './errors.js';
export {
  applyViewerEvent,
  initialViewerState,
  type ModelCallTiming,
  VIEWER_LIMITS,
  type ViewerState,
  viewerStateOf,
} from './model.js';
export { type ErrorBody, type RunDetails, type RunSummary, TOKEN_HEADER } from './protocol.js';
export { parseEventLog, viewerStateFromRunState } from './replay.js';
export type { RunViewerApi } from './run-viewer.js';
export type { StreamStats, StreamStatus } from './sse-client.js';
