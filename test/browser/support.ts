/**
 * The browser tests' counterparts: a test site on loopback (a form, a
 * redirect to the metadata address, a page pulling from another loopback
 * port, a page that never loads, a dialog), a second loopback server that
 * must never be reached, and a look at /proc for Chromium processes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);

/** A loopback HTTP server: its base URL, the paths it was asked for, and its stop. */
export interface TestServer {
  base: string;
  port: number;
  hits: string[];
  stop(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

/** Starts `handler` on a free loopback port; held sockets are destroyed at stop. */
async function serve(
  handler: (
    url: URL,
    respond: (status: number, body: string, headers?: Record<string, string>) => void,
  ) => void,
): Promise<TestServer> {
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    hits.push(url.pathname + url.search);
    handler(url, (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    hits,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A server the pages try to reach and the rules must keep them from. */
export const startForbiddenServer = () => serve((_url, respond) => respond(200, 'secret'));

/** The test site; `other` is the forbidden server's port. */
export function startTestSite(other: number): Promise<TestServer> {
  return serve((url, respond) => {
    switch (url.pathname) {
      case '/form':
        return respond(
          200,
          page(
            'Sign up',
            `<h1>Sign up</h1><form action="/result" method="get">
              <label for="name">Name</label><input id="name" name="name">
              <button type="submit">Submit</button></form>`,
          ),
        );
      case '/result':
        return respond(
          200,
          page('Result', `<p id="greeting">Hello, ${escapeHtml(url.searchParams.get('name') ?? '')}!</p>`),
        );
      case '/redirect':
        return respond(302, '', { location: 'http://169.254.169.254/latest/meta-data/' });
      case '/foreign':
        return respond(
          200,
          page(
            'Foreign',
            `<p>mixed</p><img src="http://127.0.0.1:${other}/pixel.png">
            <script>new WebSocket('ws://127.0.0.1:${other}/socket');</script>`,
          ),
        );
      case '/never':
        return; // never answered: the page never loads
      case '/dialog':
        return respond(200, page('Dialog', `<button onclick="alert('Are you sure?')">Delete</button>`));
      case '/files':
        return respond(200, page('Files', '<a href="/files/report.csv" download>report</a>'));
      case '/files/report.csv':
        return respond(200, 'a,b\n1,2\n', {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="report.csv"',
        });
      case '/long':
        return respond(200, page('Long', `<div style="height:5000px">top</div><p id="end">end</p>`));
      default:
        return respond(404, page('Not found', 'not found'));
    }
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Processes (pid) whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** The `--user-data-dir`s of the Chromiums `parent` launched (playwright makes a fresh one per launch). */
export function profilesOfChildren(parent: number): string[] {
  const profiles: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const dir = args.find((arg) => arg.startsWith('--user-data-dir='));
      if (dir) profiles.push(dir.slice('--user-data-dir='.length));
    } catch {
      // The process ended while we looked.
    }
  }
  return profiles;
}

/** Resolves once no process mentions `marker`, or rejects with the survivors after `ms`. */
export async function gone(marker: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = processesWith(marker);
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`Chromium processes left for ${marker}: ${left.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once `path` exists, or rejects after `ms`. */
export async function fileAppears(path: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
