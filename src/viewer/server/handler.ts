/**
 * `createViewerHandler`: the viewer's server part, in the Fetch API's shape
 * `(Request) => Promise<Response>`, so it mounts in Node's `http` (through
 * `toNodeListener`), Next.js route handlers, Hono, Bun.serve and Deno.serve
 * alike.
 *
 * Routes, under `basePath`:
 *
 * | route | answers |
 * | --- | --- |
 * | `GET /` | the page (`<tandem-viewer>`), with a strict CSP |
 * | `GET /viewer.js`, `GET /viewer.css`, `GET /favicon.svg` | the page's script, stylesheet and icon |
 * | `GET /api/runs` | `{ runs: RunSummary[] }`, newest first |
 * | `GET /api/runs/:id` | `RunDetails`: the summary and the answer token |
 * | `GET /api/runs/:id/events` | the run's events as SSE, resuming after `Last-Event-ID` (or `?after=`) |
 * | `GET /api/runs/:id/state` | a saved state shown with `addState` |
 * | `POST /api/runs/:id/interrupts/:interruptId` | answers a question: JSON `{ action, value? }`, header `x-tandem-token` |
 * @module
 */
import type { TandemEvent } from '../../core/events.js';
import { type Runtime, resolveRuntime } from '../../core/seams.js';
import type { InterruptBus } from '../../safety/approvals/interrupt-bus.js';
import type { RunState } from '../../state/run-state.js';
import { ViewerError } from '../errors.js';
import type { RunDetails, RunSummary } from '../protocol.js';
import type { ViewerAssets } from './assets.js';
import { bundledAssets } from './bundled-assets.js';
import { type RouteContext, requestHandler } from './routes.js';
import { detailsOf, RunRegistry, type ShownRun, type TrackableRun } from './runs.js';

/** Options of {@link createViewerHandler}. */
export interface ViewerHandlerOptions {
  /** Where the handler is mounted, e.g. `/viewer`. Requests outside it get 404. Default `''` (the root). */
  basePath?: string;
  /** The interrupt bus that answers tracked runs' questions (overridable per run). Without one, questions are shown read-only. */
  bus?: InterruptBus;
  /** Events held per run for replays and reconnects. Default 10 000; past it streamed deltas go first (docs/viewer.md). */
  maxEventsPerRun?: number;
  /** Runs shown; past it the oldest ended run is forgotten. Default 100. */
  maxRuns?: number;
  /** Reconnection delay the page's `EventSource` is told to use. Default 1 000 ms. */
  retryMs?: number;
  /** Interval of the SSE keep-alive comments; 0 disables them. Default 15 000 ms. */
  heartbeatMs?: number;
  /**
   * `Host` header values accepted, e.g. `['127.0.0.1:4173', 'localhost:4173']`;
   * others get 403. Guards a localhost viewer against DNS rebinding. Default: any.
   */
  allowedHosts?: string[];
  /**
   * Decides whether a request may see a run (and, through its token, answer
   * it): e.g. check the session cookie. `runId` is undefined for the page,
   * its files and the run list. Default: everything is allowed.
   */
  authorize?: (request: Request, runId: string | undefined) => boolean | Promise<boolean>;
  /** The page's script and stylesheet. Default: the package's own. */
  assets?: ViewerAssets;
  /** The page's title. Default `tandem runs`. */
  title?: string;
  /** Clock of the heartbeats; ids make the answer tokens (the default ids are random UUIDs from `crypto`). */
  runtime?: Partial<Runtime>;
}

/** The handler and the runs it shows. */
export interface ViewerHandler {
  /** Answers one request. Bound: pass it around as is (`export const GET = viewer.handle`). */
  readonly handle: (request: Request) => Promise<Response>;
  /**
   * Follows a run from now on: call it right after `orchestrator.run()`, in
   * the same tick, to hold every event. Its questions are answered through
   * `options.bus`, else the handler's.
   * @throws ViewerError `duplicate_run` when the run is shown already.
   */
  track(run: TrackableRun, options?: { title?: string; bus?: InterruptBus }): ShownRun;
  /**
   * Shows a recorded event log (e.g. from `parseEventLog`) as an ended run, replayed like a live one.
   * @throws ViewerError `invalid_log` for an empty log, `duplicate_run`.
   */
  addLog(events: Iterable<TandemEvent>, options?: { title?: string }): ShownRun;
  /**
   * Shows a saved run state (from any checkpoint store).
   * @throws ViewerError `invalid_state` for a value without `runId` and `task`, `duplicate_run`.
   */
  addState(state: RunState, options?: { title?: string }): ShownRun;
  /** Forgets a run; its open streams end. */
  remove(runId: string): boolean;
  /** The runs shown, newest first. */
  runs(): RunSummary[];
  /** One run's details, token included when its questions can be answered. */
  details(runId: string): RunDetails | undefined;
}

/**
 * A viewer handler.
 *
 * ```ts
 * const viewer = createViewerHandler({ bus });
 * const run = orchestrator.run(task);
 * viewer.track(run);
 * createServer(toNodeListener(viewer.handle)).listen(4173, '127.0.0.1');
 * ```
 * @throws ViewerError `invalid_option` for a `basePath` that does not start with `/`, or a non-positive limit.
 */
export function createViewerHandler(options: ViewerHandlerOptions = {}): ViewerHandler {
  const r = resolve(options);
  const { registry } = r;
  return {
    handle: requestHandler(r),
    track: (run, o = {}) => registry.track(run, { title: o.title, bus: o.bus ?? options.bus }),
    addLog: (events, o = {}) => registry.addLog([...events], o.title),
    addState: (state, o = {}) => registry.addState(state, o.title),
    remove: (runId) => registry.remove(runId),
    runs: () => registry.list(),
    details(runId) {
      const entry = registry.get(runId);
      return entry && detailsOf(entry);
    },
  };
}

function resolve(options: ViewerHandlerOptions): RouteContext {
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  if (base !== '' && !base.startsWith('/')) {
    throw new ViewerError(
      'invalid_option',
      `basePath must start with "/", got ${JSON.stringify(options.basePath)}`,
    );
  }
  const maxEvents = options.maxEventsPerRun ?? 10_000;
  const maxRuns = options.maxRuns ?? 100;
  for (const [name, value] of Object.entries({ maxEventsPerRun: maxEvents, maxRuns })) {
    if (!Number.isInteger(value) || value < 1) {
      throw new ViewerError('invalid_option', `${name} must be a positive integer, got ${value}`);
    }
  }
  const runtime = resolveRuntime(options.runtime);
  let assets: Promise<ViewerAssets> | undefined;
  return {
    base,
    title: options.title ?? 'tandem runs',
    registry: new RunRegistry({ maxRuns, maxEvents, ids: runtime.ids }),
    clock: runtime.clock,
    retryMs: options.retryMs ?? 1_000,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    allowedHosts: options.allowedHosts,
    authorize: options.authorize,
    assets: () => {
      if (options.assets) return Promise.resolve(options.assets);
      assets ??= bundledAssets().catch((error: unknown) => {
        assets = undefined;
        throw new ViewerError('no_assets', 'The viewer page could not be built; pass `assets`', {
          cause: error,
        });
      });
      return assets;
    },
  };
}
