/**
 * Error replies that are not a provider's error JSON: a router's
 * `404 page not found`, a proxy's HTML page. They come from whatever answers
 * at the URL, usually because the URL is wrong, so the message names the URL
 * and says what to check, in one line a log can hold.
 * @module
 */

/** Longest page text kept in a message. */
const MAX_LINE = 200;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/**
 * `text` as one line of at most 200 characters: an HTML page loses its
 * scripts, styles and tags, whitespace runs become one space.
 */
export function pageLine(text: string): string {
  let line = text;
  if (/<[a-z!/][^>]*>/i.test(line)) {
    line = line
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? ' ');
  }
  line = line.replace(/\s+/g, ' ').trim();
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

/**
 * The URL as a message may show it: no user name, password or query, which
 * may carry credentials.
 */
export function shownURL(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

/**
 * What to check after a 404 or 405: a path without an API version (`/v1`,
 * `/v1beta`, `/api/v2`…) most often means a `baseURL` without its suffix,
 * e.g. `http://localhost:11434` for Ollama's `http://localhost:11434/v1`.
 */
export function notFoundHint(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not a URL: judge the text as given.
  }
  return /\/v\d+[a-z\d]*(\/|$)/i.test(path)
    ? 'check the baseURL and the model name'
    : 'does the baseURL need a /v1 suffix?';
}

/**
 * The message of an error reply whose body is a page or plain text, not the
 * provider's JSON: the page as one line. A 404 or 405 says the route is not
 * there, so it also names the URL called and what to check. Other statuses
 * keep the page's own words alone: a bare "Bad Request" must stay bare for
 * the context-overflow heuristic.
 */
export function pageMessage(status: number, text: string, url: string | undefined): string {
  const line = pageLine(text);
  if (url === undefined || (status !== 404 && status !== 405)) return line || `HTTP ${status}`;
  return `HTTP ${status} from ${shownURL(url)}${line ? `: ${line}` : ''} — ${notFoundHint(url)}`;
}

/**
 * A JSON 404 that only says "Not Found" (FastAPI's `{"detail":"Not Found"}`
 * in vLLM, a gateway's default) is a route that does not exist, not the
 * API's answer about a model.
 */
export function isBareNotFound(message: string | undefined): boolean {
  return message !== undefined && /^(404:?\s*)?(page\s+)?not\s+found\.?$/i.test(message.trim());
}
