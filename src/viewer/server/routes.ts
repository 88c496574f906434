/**
 * The handler's routing: the host and base-path checks, `authorize`, and one
 * response per route (see the table in handler.ts).
 * @module
 */
import type { Clock } from '../../core/seams.js';
import { answerInterrupt } from './answer.js';
import type { ViewerAssets } from './assets.js';
import { eventsResponse } from './events-route.js';
import { FAVICON_SVG, fail, headers, json, methodNotAllowed, pageResponse } from './html.js';
import { detailsOf, type RunRegistry } from './runs.js';

/** What the routes need, resolved from the handler's options. */
export interface RouteContext {
  /** The base path without a trailing slash (`''` for the root). */
  base: string;
  title: string;
  registry: RunRegistry;
  clock: Clock;
  retryMs: number;
  heartbeatMs: number;
  assets: () => Promise<ViewerAssets>;
  allowedHosts?: string[];
  authorize?: (request: Request, runId: string | undefined) => boolean | Promise<boolean>;
}

/** The Fetch-style function answering every request for `r`. */
export function requestHandler(r: RouteContext): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (r.allowedHosts && !r.allowedHosts.includes(request.headers.get('host') ?? url.host)) {
      return fail(403, 'forbidden_host', 'This host name is not allowed');
    }
    const inside = url.pathname === r.base || url.pathname.startsWith(`${r.base}/`);
    if (!inside) return fail(404, 'not_found', 'Not found');
    const segments = decodeSegments(url.pathname.slice(r.base.length));
    if (!segments) return fail(400, 'bad_request', 'Malformed path');
    const runId = segments[0] === 'api' && segments[1] === 'runs' ? segments[2] : undefined;
    if (r.authorize && !(await r.authorize(request, runId))) return fail(403, 'forbidden', 'Not allowed');
    return route(request, segments, r);
  };
}

async function route(request: Request, segments: string[], r: RouteContext): Promise<Response> {
  const [first, second, runId, part, interruptId, ...rest] = segments;
  const method = request.method.toUpperCase();
  const only = (allowed: string, respond: () => Response | Promise<Response>) =>
    method === allowed ? respond() : methodNotAllowed(allowed);

  if (segments.length === 0 || (segments.length === 1 && first === 'index.html')) {
    return only('GET', () => pageResponse(r.base, r.title));
  }
  if (segments.length === 1 && first === 'favicon.svg') {
    return only(
      'GET',
      () => new Response(FAVICON_SVG, { headers: headers({ 'content-type': 'image/svg+xml' }) }),
    );
  }
  if (segments.length === 1 && (first === 'viewer.js' || first === 'viewer.css')) {
    return only('GET', () => asset(r, first === 'viewer.js'));
  }
  if (first !== 'api' || second !== 'runs' || rest.length > 0) return fail(404, 'not_found', 'Not found');
  if (runId === undefined) return only('GET', () => json({ runs: r.registry.list() }));
  const entry = r.registry.get(runId);
  if (!entry) return fail(404, 'unknown_run', `No run ${runId} is shown here`);
  if (part === undefined) return only('GET', () => json(detailsOf(entry)));
  if (part === 'events' && interruptId === undefined) {
    return only('GET', () =>
      entry.log
        ? eventsResponse(request, entry.log, r)
        : fail(404, 'no_events', 'This run is a saved state: GET its state instead'),
    );
  }
  if (part === 'state' && interruptId === undefined) {
    return only('GET', () =>
      entry.state ? json(entry.state) : fail(404, 'no_state', 'This run has events, not a saved state'),
    );
  }
  if (part === 'interrupts' && interruptId !== undefined) {
    return only('POST', () => answerInterrupt(request, entry, interruptId));
  }
  return fail(404, 'not_found', 'Not found');
}

async function asset(r: RouteContext, script: boolean): Promise<Response> {
  const files = await r.assets();
  return new Response(script ? files.script : files.style, {
    headers: headers({
      'content-type': script ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      'cache-control': 'no-cache',
    }),
  });
}

/** The path's segments, decoded; undefined when one is not valid percent-encoding. */
function decodeSegments(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}
