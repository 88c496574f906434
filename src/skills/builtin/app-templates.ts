/**
 * The app templates of `app_builder`, as data: dependency-free Node servers
 * that listen on `HOST`:`PORT` and answer `/health` with the `APP_TOKEN` they
 * were started with. `{{title}}`, `{{tagline}}` and `{{sections}}` are filled
 * in (HTML-escaped) when the files are written.
 * @module
 */

/** Ids of the built-in templates. */
export type AppTemplateId = 'node-http' | 'static-site';

/** A template: files by path, the file node starts, and the health path. */
export interface AppTemplate {
  id: string;
  description: string;
  /** The server file, started with `node` from the app's directory. */
  entry: string;
  /** Answers 2xx/3xx/4xx once the app is up. */
  healthPath: string;
  /** File contents by path relative to the app's directory. */
  files: Readonly<Record<string, string>>;
}

/** What fills a template's placeholders. */
export interface AppContent {
  title: string;
  tagline: string;
  sections: readonly { heading: string; text: string }[];
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
<link rel="stylesheet" href="/style.css">
</head>
<body>
<header><h1>{{title}}</h1><p>{{tagline}}</p></header>
<main>
{{sections}}
</main>
</body>
</html>
`;

const STYLE = `body { font-family: system-ui, sans-serif; margin: 0; color: #1f2933; }
header { background: #1f4e8c; color: white; padding: 2rem; }
main { max-width: 48rem; margin: 2rem auto; padding: 0 1rem; }
section { margin-bottom: 1.5rem; }
#items li { margin: 0.25rem 0; }
`;

const HEALTH = `  if (url.pathname === '/health') {
    return send(res, 200, JSON.stringify({ ok: true, app: process.env.APP_TOKEN || '' }), 'application/json');
  }`;

const SEND = `function send(res, status, body, type) {
  res.writeHead(status, { 'content-type': type + '; charset=utf-8' });
  res.end(body);
}`;

const LISTEN = `const port = Number(process.env.PORT) || 3000;
const host = process.env.HOST || '127.0.0.1';
server.listen(port, host, () => console.log('listening on http://' + host + ':' + port));
`;

const NODE_SERVER = `'use strict';
// A JSON API (/api/items) and one page, on Node's http module alone.
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const items = [];
let nextId = 1;

${SEND}

function readJson(req, done) {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
    if (body.length > 1e6) req.destroy();
  });
  req.on('end', () => {
    try {
      done(undefined, JSON.parse(body || '{}'));
    } catch (error) {
      done(error);
    }
  });
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
${HEALTH}
  if (url.pathname === '/api/items' && req.method === 'GET') {
    return send(res, 200, JSON.stringify(items), 'application/json');
  }
  if (url.pathname === '/api/items' && req.method === 'POST') {
    return readJson(req, (error, data) => {
      if (error) return send(res, 400, JSON.stringify({ error: 'invalid JSON' }), 'application/json');
      const item = { id: nextId++, ...data };
      items.push(item);
      send(res, 201, JSON.stringify(item), 'application/json');
    });
  }
  const pages = { '/': ['index.html', 'text/html'], '/style.css': ['style.css', 'text/css'] };
  const page = pages[url.pathname];
  if (page) return send(res, 200, fs.readFileSync(path.join(__dirname, page[0]), 'utf8'), page[1]);
  send(res, 404, JSON.stringify({ error: 'not found' }), 'application/json');
});

${LISTEN}`;

const ITEMS_SECTION = `<section>
<h2>Items</h2>
<form id="add"><input name="name" placeholder="New item" required> <button>Add</button></form>
<ul id="items"></ul>
</section>
<script>
async function refresh() {
  const items = await (await fetch('/api/items')).json();
  document.getElementById('items').innerHTML = '';
  for (const item of items) {
    const li = document.createElement('li');
    li.textContent = item.name;
    document.getElementById('items').append(li);
  }
}
document.getElementById('add').addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = new FormData(event.target).get('name');
  await fetch('/api/items', { method: 'POST', body: JSON.stringify({ name }) });
  event.target.reset();
  refresh();
});
refresh();
</script>
`;

const STATIC_SERVER = String.raw`'use strict';
// Serves public/ with Node's http module alone; paths never leave public/.
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, 'public');
const types = { '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

${SEND}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
${HEALTH}
  let wanted;
  try {
    wanted = path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
  } catch {
    return send(res, 400, 'bad request', 'text/plain');
  }
  let file = path.join(root, wanted || 'index.html');
  if (!file.startsWith(root)) return send(res, 403, 'forbidden', 'text/plain');
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  fs.readFile(file, (error, data) => {
    if (error) return send(res, 404, 'not found', 'text/plain');
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(data);
  });
});

${LISTEN}`;

/** The built-in templates. */
export const APP_TEMPLATES: Readonly<Record<AppTemplateId, AppTemplate>> = {
  'node-http': {
    id: 'node-http',
    description: 'A Node HTTP app: a JSON API (/api/items) and a page using it; no dependencies',
    entry: 'server.js',
    healthPath: '/health',
    files: {
      'server.js': NODE_SERVER,
      'index.html': PAGE.replace('{{sections}}', `{{sections}}\n${ITEMS_SECTION}`),
      'style.css': STYLE,
      'package.json': `${JSON.stringify({ name: 'app', private: true, scripts: { start: 'node server.js' } }, null, 2)}\n`,
    },
  },
  'static-site': {
    id: 'static-site',
    description: 'A static site (public/) served by a dependency-free Node file server',
    entry: 'server.js',
    healthPath: '/health',
    files: {
      'server.js': STATIC_SERVER,
      'public/index.html': PAGE,
      'public/style.css': STYLE,
      'package.json': `${JSON.stringify({ name: 'site', private: true, scripts: { start: 'node server.js' } }, null, 2)}\n`,
    },
  },
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A template's files with the placeholders filled in from `content`. */
export function renderTemplate(template: AppTemplate, content: AppContent): Record<string, string> {
  const sections = content.sections
    .map((s) => `<section>\n<h2>${escapeHtml(s.heading)}</h2>\n<p>${escapeHtml(s.text)}</p>\n</section>`)
    .join('\n');
  const values: Record<string, string> = {
    title: escapeHtml(content.title),
    tagline: escapeHtml(content.tagline),
    sections,
  };
  return Object.fromEntries(
    Object.entries(template.files).map(([path, text]) => [
      path,
      text.replace(/\{\{(title|tagline|sections)\}\}/g, (_m, key: string) => values[key] ?? ''),
    ]),
  );
}
