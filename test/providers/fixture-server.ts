/**
 * A loopback HTTP server for provider adapter tests: serves wire fixtures
 * (see `fixture-files.ts`), records every request it gets, and injects faults
 * (error statuses, socket resets, stalls). Nothing leaves 127.0.0.1.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FixtureSet, type Framing, OWN_FIXTURES } from './fixture-files.js';

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** `rawBody` parsed as JSON, or `undefined` when it is not JSON. */
  body: any;
}

/** Answers one request. */
export type Handler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** Options of {@link serveFixture}. */
export interface ServeOptions {
  /** The set the fixture comes from (default: the project's own). */
  from?: FixtureSet;
  framing?: Framing;
  /** Overrides the manifest's status. */
  status?: number;
  headers?: Record<string, string>;
  /** Writes the body in pieces of this many bytes (default: whole), to split events and UTF-8 sequences. */
  chunkSize?: number;
}

async function writeBody(res: ServerResponse, body: string, chunkSize?: number): Promise<void> {
  const bytes = Buffer.from(body, 'utf8');
  if (!chunkSize) {
    res.end(bytes);
    return;
  }
  for (let i = 0; i < bytes.length; i += chunkSize) {
    res.write(bytes.subarray(i, i + chunkSize));
    // Yield to the event loop so each piece goes out as its own chunk.
    await new Promise<void>((r) => setImmediate(r));
  }
  res.end();
}

/** Serves a fixture with the status, content type and headers its manifest gives. */
export function serveFixture(file: string, options: ServeOptions = {}): Handler {
  const set = options.from ?? OWN_FIXTURES;
  const entry = set.manifest().get(file);
  if (!entry) throw new Error(`fixture not in ${set.dir}/manifest.json: ${file}`);
  const streamed = file.endsWith('.sse') || file.endsWith('.chunks.jsonl');
  const contentType = entry.contentType ?? (streamed ? 'text/event-stream' : 'application/json');
  const headers = { 'content-type': contentType, ...entry.headers, ...options.headers };
  const body = set.body(file, options.framing);
  return async (_req, res) => {
    res.writeHead(options.status ?? entry.httpStatus, headers);
    await writeBody(res, body, options.chunkSize);
  };
}

/** Responds with `status`, `headers` and `body` (objects are sent as JSON). */
export function respond(status: number, body: unknown = '', headers: Record<string, string> = {}): Handler {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json';
  return (_req, res) => {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(text);
  };
}

/** Serves `body` as an SSE stream (status 200). */
export function respondSSE(body: string, chunkSize?: number): Handler {
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    await writeBody(res, body, chunkSize);
  };
}

/** Destroys the socket before any response byte is sent. */
export function resetBeforeResponse(): Handler {
  return (_req, res) => {
    res.socket?.destroy();
  };
}

/** Sends the headers and the first `bytes` bytes of `body`, then destroys the socket. */
export function resetAfter(body: string, bytes: number, contentType = 'text/event-stream'): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.write(Buffer.from(body, 'utf8').subarray(0, bytes), () => {
      setImmediate(() => res.socket?.destroy());
    });
  };
}

/** Never answers (until the server closes); with `body`, sends headers and `body` first, then stalls. */
export function stall(body?: string): Handler {
  return (_req, res) => {
    if (body === undefined) return;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(body);
  };
}

/** A running loopback server. */
export interface FixtureServer {
  /** Base URL, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Sets the handlers for the next requests: the n-th request gets the n-th handler, the last one repeats. */
  handle(...handlers: Handler[]): void;
  /** The last request received (throws when there is none). */
  lastRequest(): RecordedRequest;
  /** Stops the server, destroying open connections (stalled responses included). */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with an OS-assigned port. */
export async function startFixtureServer(): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  let handlers: Handler[] = [];
  let served = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawBody,
        body,
      };
      requests.push(recorded);
      const handler = handlers[Math.min(served++, handlers.length - 1)];
      if (!handler) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('fixture server: no handler set');
        return;
      }
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(...next) {
      handlers = next;
      served = 0;
    },
    lastRequest() {
      const last = requests.at(-1);
      if (!last) throw new Error('fixture server: no request received');
      return last;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/**
 * One server for the calling test file or `describe` block (started before
 * all its tests, closed after them, request log cleared before each). The
 * handle stands for the server inside tests; `get()` returns the server itself.
 */
export function useFixtureServer(): FixtureServer & { get(): FixtureServer } {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.requests.splice(0);
  });
  const get = (): FixtureServer => {
    if (!server) throw new Error('fixture server not started');
    return server;
  };
  return {
    get,
    get url() {
      return get().url;
    },
    get requests() {
      return get().requests;
    },
    handle: (...handlers) => get().handle(...handlers),
    lastRequest: () => get().lastRequest(),
    close: () => get().close(),
  };
}
