/**
 * The DNS step of a guarded connection: a `lookup` for `node:net` that
 * resolves the name itself and hands the socket only addresses that passed
 * the check. The address checked is the address connected to, so a name
 * that answered a public address to an earlier check and a private one now
 * (DNS rebinding) is refused.
 * @module
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { errorMessage } from '../core/errors.js';
import { checkAddresses } from '../safety/guardrails/url-check.js';
import { SafeFetchError } from './errors.js';

/** Resolves a host name to its IP addresses. */
export type Resolver = (host: string, options?: { signal?: AbortSignal }) => Promise<readonly string[]>;

/** The system resolver (`getaddrinfo`, as `fetch` and `http.get` use), every address. */
export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** How {@link guardedLookup} resolves and what it lets through. */
export interface GuardedLookupOptions {
  resolve: Resolver;
  /** The host is on the allow list: resolve it, but do not check its addresses. */
  allowListed: boolean;
  /** The URL of the hop, for error messages. */
  url: string;
  signal: AbortSignal;
}

/**
 * A `lookup` for `http.request` that connects only to public addresses. A
 * name with any non-public address fails the connection with a
 * {@link SafeFetchError} of kind `blocked` (rule `url.resolves_private`).
 */
export function guardedLookup(options: GuardedLookupOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    options.resolve(hostname, { signal: options.signal }).then(
      (resolved) => {
        const verdict = options.allowListed ? { ok: true as const } : checkAddresses(hostname, resolved);
        if (!verdict.ok) {
          callback(
            new SafeFetchError('blocked', `Connection refused: ${verdict.reason}`, {
              url: options.url,
              rule: verdict.rule,
            }),
            '',
          );
          return;
        }
        const entries = usable(resolved, lookupOptions);
        if (entries.length === 0) {
          const message = `Host "${hostname}" has no usable address`;
          callback(new SafeFetchError('connection', message, { url: options.url }), '');
        } else {
          answer(entries, lookupOptions, callback);
        }
      },
      (error: unknown) =>
        callback(
          new SafeFetchError('connection', `Host "${hostname}" did not resolve: ${errorMessage(error)}`, {
            url: options.url,
            cause: error,
          }),
          '',
        ),
    );
  };
}

type LookupCallback = Parameters<LookupFunction>[2];

type LookupOptions = Parameters<LookupFunction>[1];

/** The resolved addresses of the family `net` wants (any, when it names none). */
function usable(
  resolved: readonly string[],
  lookupOptions: LookupOptions,
): { address: string; family: number }[] {
  const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
  return resolved
    .map((address) => ({ address, family: isIP(address) }))
    .filter((entry) => entry.family !== 0 && (wanted === 0 || entry.family === wanted));
}

/** Answers in the shape `net` asked for: every address (`all`), or the first. `entries` is not empty. */
function answer(
  entries: { address: string; family: number }[],
  lookupOptions: LookupOptions,
  callback: LookupCallback,
): void {
  const first = entries[0]!;
  if (lookupOptions.all) callback(null, entries);
  else callback(null, first.address, first.family);
}
