/**
 * The network rules inside the browser context: every request the page makes
 * is intercepted and its URL checked before it leaves (scheme, local names,
 * private addresses in every encoding; with a remote browser also the
 * addresses the name resolves to), WebSockets included. A launched browser
 * also sends everything through the guard proxy (see `proxy.ts`), which
 * checks the hops interception never sees: redirects, and the address
 * connected to.
 * @module
 */
import type { BrowserContext, Route, WebSocketRoute } from 'playwright-core';
import { checkUrl, inspectUrl, type UrlPolicy, type UrlVerdict } from '../safety/guardrails/url-check.js';
import { withDeadline } from './deadline.js';
import type { BlockedRequest } from './proxy.js';

/** How the context checks requests. */
export interface ContextGuard {
  policy: UrlPolicy;
  /** Resolve host names and check their addresses here (a remote browser, no guard proxy). */
  resolveHere: boolean;
  onBlocked: (blocked: BlockedRequest) => void;
  timeoutMs: number;
}

/** Installs request and WebSocket interception on `context`. */
export async function guardContext(context: BrowserContext, guard: ContextGuard): Promise<void> {
  await context.route('**/*', (route) => onRequest(route, guard));
  await context.routeWebSocket(
    () => true,
    (ws) => onWebSocket(ws, guard),
  );
}

/** The verdict on one URL, within the guard's time limit (a DNS answer that never comes is a refusal). */
async function verdictOf(url: string, guard: ContextGuard): Promise<UrlVerdict> {
  if (!guard.resolveHere) return inspectUrl(url, guard.policy);
  try {
    return await withDeadline(checkUrl(url, guard.policy), {
      what: `resolving the host of ${url}`,
      timeoutMs: guard.timeoutMs,
    });
  } catch (error) {
    return { ok: false, rule: 'url.unresolvable', reason: String(error) };
  }
}

async function onRequest(route: Route, guard: ContextGuard): Promise<void> {
  const url = route.request().url();
  const verdict = await verdictOf(url, guard);
  try {
    if (verdict.ok) await route.continue();
    else {
      guard.onBlocked({ url, rule: verdict.rule, reason: verdict.reason });
      await route.abort('blockedbyclient');
    }
  } catch {
    // The page went away while the request was held: nothing is left to answer.
  }
}

async function onWebSocket(ws: WebSocketRoute, guard: ContextGuard): Promise<void> {
  const url = ws.url();
  const verdict = await verdictOf(url, {
    ...guard,
    policy: { ...guard.policy, allowedSchemes: ['ws', 'wss'] },
  });
  try {
    if (verdict.ok) ws.connectToServer();
    else {
      guard.onBlocked({ url, rule: verdict.rule, reason: verdict.reason });
      await ws.close({ code: 1008, reason: 'Blocked by tandem-agents network rules' });
    }
  } catch {
    // The page went away first.
  }
}
