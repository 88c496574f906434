import { describe, expect, it } from 'vitest';
import { createSafeFetch, SafeFetchError, safeFetch } from '../../src/net/index.js';
import { checkUrl } from '../../src/safety/guardrails/url-check.js';
import { serve } from './servers.js';

const redirectTo =
  (status: number, location: string) => (_: unknown, response: import('node:http').ServerResponse) => {
    response.writeHead(status, { location });
    response.end();
  };

async function failure(promise: Promise<unknown>): Promise<SafeFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SafeFetchError);
  return error as SafeFetchError;
}

describe('safeFetch: every hop is checked', () => {
  it('blocks a loopback URL by default and never connects', async () => {
    const server = await serve((_, response) => response.end('secret'));
    const error = await failure(safeFetch(`${server.origin}/`));
    expect(error).toMatchObject({ kind: 'blocked', rule: 'url.private_address' });
    expect(server.requests).toEqual([]);
  });

  it('fetches from an allow-listed host and port', async () => {
    const server = await serve((_, response) => response.end('hello'));
    const response = await createSafeFetch({ allowHosts: [server.hostPort] })(`${server.origin}/a#frag`);
    expect(await response.text()).toBe('hello');
    expect(response).toMatchObject({ status: 200, url: `${server.origin}/a`, redirected: false });
  });

  it('blocks a redirect from an allowed host to a loopback address', async () => {
    const inside = await serve((_, response) => response.end('secret'));
    const allowed = await serve(redirectTo(302, `http://127.0.0.1:${inside.port}/admin`));
    const error = await failure(createSafeFetch({ allowHosts: [allowed.hostPort] })(`${allowed.origin}/`));
    expect(error).toMatchObject({ kind: 'blocked', rule: 'url.private_address' });
    expect(allowed.requests).toHaveLength(1);
    expect(inside.requests).toEqual([]);
  });

  it('blocks a redirect to a name that resolves to a private address, at connect time', async () => {
    const inside = await serve((_, response) => response.end('secret'));
    const allowed = await serve(redirectTo(301, `http://metadata.example:${inside.port}/`));
    const fetchIt = createSafeFetch({ allowHosts: [allowed.hostPort], resolve: async () => ['127.0.0.1'] });
    const error = await failure(fetchIt(`${allowed.origin}/`));
    expect(error).toMatchObject({ kind: 'blocked', rule: 'url.resolves_private' });
    expect(inside.requests).toEqual([]);
  });

  it('refuses a rebinding name that resolved public when the arguments were scanned', async () => {
    const inside = await serve((_, response) => response.end('secret'));
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const resolve = async () => answers.shift() ?? [];
    const url = `http://rebind.example:${inside.port}/`;
    expect(await checkUrl(url, { resolve })).toMatchObject({ ok: true });
    const error = await failure(createSafeFetch({ resolve })(url));
    expect(error).toMatchObject({ kind: 'blocked', rule: 'url.resolves_private' });
    expect(inside.requests).toEqual([]);
  });

  it('connects an allow-listed name through the resolver it was given', async () => {
    const server = await serve((request, response) => response.end(request.headers.host));
    const fetchIt = createSafeFetch({
      allowHosts: [`app.test:${server.port}`],
      resolve: async () => ['127.0.0.1'],
    });
    expect(await (await fetchIt(`http://app.test:${server.port}/`)).text()).toBe(`app.test:${server.port}`);
  });
});

describe('safeFetch: redirects as the fetch standard follows them', () => {
  async function echoServer() {
    const server = await serve((request, response) => {
      const match = /^\/(\d{3})$/.exec(request.path);
      if (match) return redirectTo(Number(match[1]), '/echo')(request, response);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(request));
    });
    return { server, fetchIt: createSafeFetch({ allowHosts: [server.hostPort] }) };
  }

  it.each([
    [303, 'POST', 'GET', ''],
    [303, 'PUT', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [301, 'PUT', 'PUT', 'data'],
    [307, 'POST', 'POST', 'data'],
    [308, 'PUT', 'PUT', 'data'],
  ])('%i turns %s into %s', async (status, method, after, body) => {
    const { server, fetchIt } = await echoServer();
    const response = await fetchIt(`${server.origin}/${status}`, {
      method,
      body: 'data',
      headers: { 'content-type': 'text/plain' },
    });
    const seen = await response.json();
    expect(seen).toMatchObject({ method: after, path: '/echo', body });
    expect(seen.headers['content-type']).toBe(body ? 'text/plain' : undefined);
    expect(response).toMatchObject({ redirected: true, url: `${server.origin}/echo` });
  });

  it('carries credentials to the same origin only', async () => {
    const other = await serve((request, response) => response.end(JSON.stringify(request.headers)));
    const first = await serve((request, response) =>
      request.path === '/same'
        ? redirectTo(302, '/end')(request, response)
        : request.path === '/end'
          ? response.end(JSON.stringify(request.headers))
          : redirectTo(302, `${other.origin}/`)(request, response),
    );
    const fetchIt = createSafeFetch({ allowHosts: [first.hostPort, other.hostPort] });
    const headers = { authorization: 'Bearer t', cookie: 'a=1', 'x-trace': '7' };
    const crossed = await (await fetchIt(`${first.origin}/cross`, { headers })).json();
    expect(crossed).toMatchObject({ 'x-trace': '7' });
    expect(crossed).not.toHaveProperty('authorization');
    expect(crossed).not.toHaveProperty('cookie');
    const same = await (await fetchIt(`${first.origin}/same`, { headers })).json();
    expect(same).toMatchObject({ authorization: 'Bearer t', cookie: 'a=1' });
  });

  it('fails after maxRedirects redirects', async () => {
    const server = await serve(redirectTo(302, '/again'));
    const error = await failure(
      createSafeFetch({ allowHosts: [server.hostPort], maxRedirects: 3 })(server.origin),
    );
    expect(error.kind).toBe('redirect');
    expect(server.requests).toHaveLength(4);
  });

  it("returns the redirect itself with redirect: 'manual' and fails with 'error'", async () => {
    const server = await serve(redirectTo(302, 'http://127.0.0.1:1/'));
    const fetchIt = createSafeFetch({ allowHosts: [server.hostPort] });
    const manual = await fetchIt(server.origin, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('http://127.0.0.1:1/');
    expect((await failure(fetchIt(server.origin, { redirect: 'error' }))).kind).toBe('redirect');
  });
});
