/**
 * `toNodeListener`: a Fetch-style handler as a Node `http` request listener,
 * for `http.createServer`. It imports nothing from Node — the request and
 * response are typed by the few members it uses — so this entry stays
 * loadable on any runtime.
 * @module
 */

/** The members of Node's `IncomingMessage` the adapter reads. */
export interface NodeRequestLike {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The members of Node's `ServerResponse` the adapter writes. */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  write(chunk: Uint8Array): unknown;
  end(chunk?: string): unknown;
  on(event: 'close', listener: () => void): unknown;
  flushHeaders?(): void;
  readonly headersSent?: boolean;
}

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /** Largest request body read; a longer one gets 413. Default 1 MiB. */
  maxBodyBytes?: number;
}

/**
 * A Node request listener that answers with `handle`. The response streams
 * (SSE included) and the request's `signal` aborts when the client goes
 * away, which ends the handler's stream for it.
 *
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(toNodeListener(viewer.handle)).listen(4173, '127.0.0.1');
 * ```
 */
export function toNodeListener(
  handle: (request: Request) => Promise<Response>,
  options: NodeListenerOptions = {},
): (req: NodeRequestLike, res: NodeResponseLike) => void {
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  return (req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    void readBody(req, maxBody)
      .then(
        async (body) => {
          if (body === 'too_large') {
            res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8' });
            res.end('Request body too large');
            return;
          }
          const response = await handle(toRequest(req, body, controller.signal));
          await send(response, res, controller.signal);
        },
        () => controller.abort(),
      )
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Internal error');
      });
  };
}

function toRequest(
  req: NodeRequestLike,
  body: Uint8Array<ArrayBuffer> | undefined,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = new URL(req.url ?? '/', `http://${headers.get('host') ?? 'localhost'}`);
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    signal,
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
  });
}

function readBody(req: NodeRequestLike, max: number): Promise<Uint8Array<ArrayBuffer> | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.byteLength;
      if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > max) return resolve('too_large');
      const body = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        body.set(chunk, at);
        at += chunk.byteLength;
      }
      resolve(body);
    });
    req.on('error', reject);
  });
}

async function send(response: Response, res: NodeResponseLike, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.flushHeaders?.();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || signal.aborted) break;
      res.write(value);
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    res.end();
  }
}
