/**
 * The guard proxy: a loopback HTTP proxy a launched Chromium sends every
 * request through (plain HTTP forwarded, HTTPS and WebSockets tunnelled with
 * CONNECT). Request interception in the page sees a request's first URL only;
 * the proxy sees every hop — each redirect, every subresource, WebSockets,
 * downloads — and connects through the guarded DNS lookup, so the address
 * checked is the address connected to (no DNS rebinding).
 * @module
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorMessage } from '../core/errors.js';
import { SafeFetchError } from '../net/errors.js';
import { guardedLookup, type Resolver } from '../net/lookup.js';
import { inspectUrl, type UrlPolicy } from '../safety/guardrails/url-check.js';

/** A request the network rules refused. */
export interface BlockedRequest {
  url: string;
  rule: string;
  reason: string;
}

/** What the proxy lets through and whom it tells about refusals. */
export interface GuardProxyOptions {
  policy: UrlPolicy;
  resolve: Resolver;
  onBlocked: (blocked: BlockedRequest) => void;
  /** How long an upstream connection may take to open. */
  connectTimeoutMs: number;
}

/** A running guard proxy. */
export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  readonly server: string;
  close(): Promise<void>;
}

/** The header a refusal carries, so the tool that caused it can name the rule. */
export const BLOCKED_HEADER = 'x-tandem-blocked';

// Hop-by-hop headers of the browser-to-proxy leg, never forwarded upstream.
const HOP_HEADERS = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'];

/** Starts a guard proxy on a free loopback port. */
export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const stop = new AbortController();
  const sockets = new Set<Socket | Duplex>();
  const server = createServer((req, res) => {
    const verdict = inspectUrl(req.url ?? '', options.policy);
    if (!verdict.ok) {
      options.onBlocked({ url: req.url ?? '', rule: verdict.rule, reason: verdict.reason });
      res.writeHead(403, { 'content-type': 'text/plain', [BLOCKED_HEADER]: verdict.rule });
      res.end(`Blocked by tandem-agents: ${verdict.reason}`);
      return;
    }
    forward(req, res, { ...options, allowListed: verdict.allowListed === true, signal: stop.signal });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    tunnel({ req, socket, head }, { ...options, signal: stop.signal });
  });
  await listen(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () => {
      stop.abort();
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

interface Leg extends GuardProxyOptions {
  allowListed?: boolean;
  signal: AbortSignal;
}

/** Forwards an absolute-form HTTP request through the guarded lookup. */
function forward(req: IncomingMessage, res: ServerResponse, leg: Leg): void {
  const url = new URL(req.url ?? '');
  const headers = { ...req.headers };
  for (const name of HOP_HEADERS) delete headers[name];
  const upstream = httpRequest({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || 80,
    path: `${url.pathname}${url.search}`,
    method: req.method,
    headers,
    agent: false,
    timeout: leg.connectTimeoutMs,
    lookup: guardedLookup({
      resolve: leg.resolve,
      allowListed: leg.allowListed === true,
      url: url.href,
      signal: leg.signal,
    }),
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
    answer.pipe(res);
  });
  upstream.on('timeout', () => upstream.destroy(new Error(`no answer within ${leg.connectTimeoutMs} ms`)));
  upstream.on('error', (error) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const rule = blockedRule(error);
    if (rule) leg.onBlocked({ url: url.href, rule, reason: errorMessage(error) });
    res.writeHead(rule ? 403 : 502, {
      'content-type': 'text/plain',
      ...(rule ? { [BLOCKED_HEADER]: rule } : {}),
    });
    res.end(
      rule ? `Blocked by tandem-agents: ${errorMessage(error)}` : `Upstream failed: ${errorMessage(error)}`,
    );
  });
  req.pipe(upstream);
}

/** Opens a CONNECT tunnel (HTTPS, WebSockets) to a host the rules allow. */
function tunnel(socketLeg: { req: IncomingMessage; socket: Duplex; head: Buffer }, leg: Leg): void {
  const { req, socket, head } = socketLeg;
  const target = req.url ?? '';
  const url = `https://${target}/`;
  const verdict = inspectUrl(url, leg.policy);
  if (!verdict.ok) {
    leg.onBlocked({ url: `https://${target}`, rule: verdict.rule, reason: verdict.reason });
    socket.end(`HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${verdict.rule}\r\n\r\n`);
    return;
  }
  const parsed = new URL(url);
  const upstream = connect({
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || 443),
    timeout: leg.connectTimeoutMs,
    lookup: guardedLookup({
      resolve: leg.resolve,
      allowListed: verdict.allowListed === true,
      url,
      signal: leg.signal,
    }),
  });
  upstream.once('connect', () => {
    upstream.setTimeout(0);
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.once('timeout', () =>
    upstream.destroy(new Error(`no connection within ${leg.connectTimeoutMs} ms`)),
  );
  upstream.once('error', (error) => {
    const rule = blockedRule(error);
    if (rule) leg.onBlocked({ url: `https://${target}`, rule, reason: errorMessage(error) });
    if (socket.writable) socket.end(`HTTP/1.1 ${rule ? '403 Forbidden' : '502 Bad Gateway'}\r\n\r\n`);
    else socket.destroy();
  });
  socket.once('error', () => upstream.destroy());
  socket.once('close', () => upstream.destroy());
}

function blockedRule(error: unknown): string | undefined {
  return error instanceof SafeFetchError && error.kind === 'blocked' ? error.rule : undefined;
}
