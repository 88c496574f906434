/**
 * The page, and the headers every response carries. The page has no inline
 * script or style, so it runs under a strict Content-Security-Policy:
 * scripts, styles and connections from its own origin only, no plugins,
 * frames, forms or base-URL changes.
 * @module
 */
import type { ErrorBody } from '../protocol.js';

/** The Content-Security-Policy of the page. */
export const VIEWER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // data: for the browser's live frames (base64 JPEG/PNG from browser_stream events).
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every response: no MIME sniffing, no referrer, no cross-origin reads of the files. */
const COMMON: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** The common headers with `extra`. */
export function headers(extra: Record<string, string>): Headers {
  return new Headers({ ...COMMON, ...extra });
}

/** The page: `<tandem-viewer>` over the API under `base`. */
export function pageHtml(base: string, title: string): string {
  const b = escapeHtml(base);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${b}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${b}/viewer.css">
<script type="module" src="${b}/viewer.js"></script>
</head>
<body>
<tandem-viewer api="${b}/api"></tandem-viewer>
</body>
</html>
`;
}

/** The page's icon: two linked rings, for two models working in tandem. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><g fill="none" stroke-width="4">' +
  '<circle cx="12" cy="16" r="8" stroke="#3e63dd"/><circle cx="20" cy="16" r="8" stroke="#218358"/></g></svg>';

/** A response with the page and its CSP. */
export function pageResponse(base: string, title: string): Response {
  return new Response(pageHtml(base, title), {
    headers: headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': VIEWER_CSP,
      'cache-control': 'no-store',
    }),
  });
}

/** A JSON response. */
export function json(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    }),
  });
}

/** A JSON error response: `{ error: { kind, message } }`. */
export function fail(status: number, kind: string, message: string): Response {
  const body: ErrorBody = { error: { kind, message } };
  return json(body, status);
}

/** The 405 error response for a route that only answers `allowed`, with its `Allow` header. */
export function methodNotAllowed(allowed: string): Response {
  const body: ErrorBody = { error: { kind: 'method_not_allowed', message: `Use ${allowed}` } };
  return json(body, 405, { allow: allowed });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
