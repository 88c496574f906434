import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/core/errors.js';
import { createSafeFetch, SafeFetchError, safeFetch } from '../../src/net/index.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { deferred } from '../tools/helpers.js';
import { closedPort, serve } from './servers.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** A server that takes requests and never answers; `arrived` resolves with the first. */
async function silentServer() {
  const arrived = deferred<void>();
  const server = await serve(() => arrived.resolve());
  return { server, arrived: arrived.promise };
}

describe('safeFetch limits', () => {
  it('fails a body over maxResponseBytes that declares its length, without reading it', async () => {
    const server = await serve((_, response) => response.end('x'.repeat(2048)));
    const fetchIt = createSafeFetch({ allowHosts: [server.hostPort], maxResponseBytes: 1024 });
    expect(await rejection(fetchIt(server.origin))).toMatchObject({ kind: 'too_large' });
  });

  it('fails a streamed body once it passes maxResponseBytes', async () => {
    const server = await serve((_, response) => {
      response.write('x'.repeat(800));
      response.write('x'.repeat(800));
      response.end();
    });
    const fetchIt = createSafeFetch({ allowHosts: [server.hostPort], maxResponseBytes: 1024 });
    expect(await rejection(fetchIt(server.origin))).toMatchObject({ kind: 'too_large' });
    const roomy = createSafeFetch({ allowHosts: [server.hostPort], maxResponseBytes: 1600 });
    expect((await (await roomy(server.origin)).text()).length).toBe(1600);
  });

  it('fails with timeout when the whole exchange outlives timeoutMs', async () => {
    const clock = new FakeClock();
    const { server, arrived } = await silentServer();
    const call = rejection(
      createSafeFetch({ allowHosts: [server.hostPort], timeoutMs: 5_000, clock })(server.origin),
    );
    let settled = false;
    void call.then(() => {
      settled = true;
    });
    await arrived;
    await clock.advance(4_999);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await call).toMatchObject({ kind: 'timeout' });
    expect(clock.pending).toBe(0);
  });

  it('reads no body for HEAD or a 204', async () => {
    const server = await serve((request, response) => {
      response.writeHead(request.path === '/none' ? 204 : 200, { 'x-size': '5' });
      response.end(request.method === 'HEAD' ? undefined : 'hello');
    });
    const fetchIt = createSafeFetch({ allowHosts: [server.hostPort] });
    const head = await fetchIt(server.origin, { method: 'head' });
    expect(head).toMatchObject({ status: 200, body: null });
    expect(head.headers.get('x-size')).toBe('5');
    expect((await fetchIt(`${server.origin}/none`)).status).toBe(204);
  });
});

describe('safeFetch cancellation', () => {
  it('rejects at once with AbortError when the signal is already aborted, and never connects', async () => {
    const server = await serve((_, response) => response.end('x'));
    const fetchIt = createSafeFetch({ allowHosts: [server.hostPort] });
    const error = await rejection(fetchIt(server.origin, { signal: AbortSignal.abort('stop') }));
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toEqual([]);
  });

  it('aborts a request in flight and leaves no timer behind', async () => {
    const clock = new FakeClock();
    const { server, arrived } = await silentServer();
    const controller = new AbortController();
    const call = rejection(
      createSafeFetch({ allowHosts: [server.hostPort], clock })(server.origin, { signal: controller.signal }),
    );
    await arrived;
    controller.abort(new Error('user left'));
    expect(await call).toMatchObject({ kind: 'aborted', message: 'Aborted: user left' });
    expect(clock.pending).toBe(0);
  });
});

describe('safeFetch typed errors', () => {
  it.each([
    ['ftp://example.com/file', 'blocked', 'url.scheme'],
    ['not a url', 'blocked', 'url.invalid'],
    ['http://metadata.google.internal/', 'blocked', 'url.blocked_host'],
    ['http://[::ffff:169.254.169.254]/', 'blocked', 'url.private_address'],
    ['ht\ttp://0x7f.1/', 'blocked', 'url.private_address'],
  ])('%s fails as %s (%s)', async (url, kind, rule) => {
    const error = await rejection(safeFetch(url));
    expect(error).toBeInstanceOf(SafeFetchError);
    expect(error).toMatchObject({ kind, rule });
  });

  it.each([
    ['credentials in the URL', 'http://user:pw@example.com/', {}],
    ['a body on GET', 'https://example.com/', { body: 'x' }],
    ['a forbidden method', 'https://example.com/', { method: 'CONNECT' }],
    ['a method that is not a token', 'https://example.com/', { method: 'GET /x' }],
    ['a body of another type', 'https://example.com/', { method: 'POST', body: { a: 1 } as never }],
    ['bad headers', 'https://example.com/', { headers: { 'bad header': 'x' } }],
  ])('refuses %s before connecting', async (_name, url, init) => {
    expect(await rejection(safeFetch(url, init))).toMatchObject({ kind: 'invalid_request' });
  });

  it('reports a refused connection as connection', async () => {
    const port = await closedPort();
    const error = await rejection(
      createSafeFetch({ allowHosts: [`127.0.0.1:${port}`] })(`http://127.0.0.1:${port}/`),
    );
    expect(error).toMatchObject({ kind: 'connection' });
    expect((error as SafeFetchError).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('reports a name that does not resolve as connection', async () => {
    const fetchIt = createSafeFetch({ resolve: async () => Promise.reject(new Error('ENOTFOUND')) });
    expect(await rejection(fetchIt('https://nx.example/'))).toMatchObject({ kind: 'connection' });
  });

  it('reports a status outside 200–599 as invalid_response', async () => {
    const server = await serve((_, response) => {
      response.writeHead(799);
      response.end();
    });
    const fetchIt = createSafeFetch({ allowHosts: [server.hostPort] });
    expect(await rejection(fetchIt(server.origin))).toMatchObject({ kind: 'invalid_response' });
  });
});

describe('safeFetch requests', () => {
  it('ignores the headers fetch forbids, so a call cannot pick a virtual host or the framing', async () => {
    const server = await serve((request, response) => response.end(JSON.stringify(request)));
    const fetchIt = createSafeFetch({ allowHosts: [server.hostPort] });
    const seen = await (
      await fetchIt(server.origin, {
        method: 'POST',
        body: 'abc',
        headers: {
          host: 'admin.internal',
          'transfer-encoding': 'chunked',
          'content-length': '1',
          'x-ok': '1',
        },
      })
    ).json();
    expect(seen.headers).toMatchObject({ host: server.hostPort, 'content-length': '3', 'x-ok': '1' });
    expect(seen.headers).not.toHaveProperty('transfer-encoding');
    expect(seen.body).toBe('abc');
  });
});
