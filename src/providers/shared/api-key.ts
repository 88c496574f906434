/**
 * The API key of a provider's own API, checked before a request is sent: a
 * request without one only comes back as the provider's puzzle ("Method
 * doesn't allow unregistered callers"), far from the missing variable.
 * Checked per request rather than when the provider is made, so an app may
 * create its providers at import and set the key later, and one without a
 * key fails only when used.
 * @module
 */
import { ConfigError } from '../../core/errors.js';
import { envVar } from './env.js';

/** Where a provider's key comes from and when it is needed. */
export interface ApiKeySource {
  /** The factory, named in the message: `createAnthropic`. */
  factory: string;
  /** The key given as the `apiKey` option. */
  given: string | undefined;
  /** Environment variables read in order when no key is given. */
  env: readonly string[];
  /**
   * The requests go to the provider's own API. A `baseURL` to another server
   * (Ollama, vLLM, a gateway) may need no key.
   */
  required: boolean;
  /** The `headers` option: credentials in one of `authHeaders` stand for the key. */
  headers: Record<string, string> | undefined;
  /** Header names (lower case) that carry credentials, e.g. `authorization`. */
  authHeaders: readonly string[];
}

/**
 * The key to send: the one given, else the first environment variable set.
 * @throws ConfigError naming the environment variables and the option when
 *   the provider's own API is called with no key and no credentials header.
 */
export function apiKeyOf(source: ApiKeySource): string | undefined {
  const key = source.given ?? envVar(...source.env);
  if (key || !source.required || hasAuthHeader(source.headers, source.authHeaders)) return key;
  const names = source.env.join(' or ');
  throw new ConfigError(
    `${source.factory}: no API key. Set ${names} in the environment or pass ${source.factory}({ apiKey }); only a baseURL to another server (a local one, a gateway) may go without one`,
  );
}

function hasAuthHeader(headers: Record<string, string> | undefined, names: readonly string[]): boolean {
  if (!headers) return false;
  for (const [name, value] of Object.entries(headers)) {
    if (value && names.includes(name.toLowerCase())) return true;
  }
  return false;
}

/** True when `url` is on `host` (a provider's own API), compared case-insensitively. */
export function isHost(url: string, host: string): boolean {
  try {
    return new URL(url).hostname.toLowerCase() === host;
  } catch {
    return false;
  }
}

/**
 * A key that a refresh hook can replace after the server refused the current
 * one (a 401): short-lived tokens, rotated secrets. Concurrent requests that
 * are refused together share one refresh.
 */
export class KeyRefresher {
  private key: string | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly factory: string,
    private readonly refresh: () => string | Promise<string>,
  ) {}

  /** The key the last refresh gave, if any: it replaces the configured one. */
  get current(): string | undefined {
    return this.key;
  }

  /** Calls the hook (once for all who ask meanwhile) and keeps its key. */
  async renew(): Promise<string> {
    this.pending ??= (async () => {
      try {
        const key = await this.refresh();
        if (typeof key !== 'string' || key === '') {
          throw new ConfigError(`${this.factory}: refreshApiKey returned no key`);
        }
        this.key = key;
        return key;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
