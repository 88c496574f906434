/**
 * Server-side request forgery checks for URLs a tool is about to fetch. The
 * URL is parsed by the platform's WHATWG parser — the one `fetch` uses — so
 * userinfo tricks, backslashes and numeric IPv4 encodings resolve to the
 * host that would really be contacted; the host is then checked against
 * local names and non-public address ranges, optionally after DNS.
 * @module
 */
import { errorMessage } from '../../core/errors.js';
import { addressRestriction } from './ip-address.js';

/** What a URL may reach. */
export interface UrlPolicy {
  /** Allowed schemes, lower-case, without `:`. Default `['http', 'https']`. */
  allowedSchemes?: readonly string[];
  /** Hosts exempt from the host and address checks (e.g. your own local service), exact, lower-case. */
  allowHosts?: readonly string[];
  /** Names blocked with all their subdomains. Default {@link DEFAULT_BLOCKED_HOST_SUFFIXES}. */
  blockedHostSuffixes?: readonly string[];
  /**
   * Resolves a host name to its addresses (e.g. `dns.promises.lookup(host, { all: true })`
   * mapped to strings). When given, every address must be public. A name that
   * does not resolve is blocked. Resolution is checked once; a server that
   * re-resolves at fetch time can still be rebound, so pin the address when
   * that matters.
   */
  resolve?: (host: string) => Promise<readonly string[]>;
}

/** Local and intranet names (the seed's list plus `localhost` and RFC 8375 `home.arpa`). */
export const DEFAULT_BLOCKED_HOST_SUFFIXES: readonly string[] = [
  'localhost',
  'localdomain',
  'local',
  'internal',
  'intranet',
  'corp',
  'private',
  'home.arpa',
];

/** A URL check's verdict. */
export type UrlVerdict =
  | { ok: true; host: string }
  | { ok: false; rule: `url.${string}`; reason: string; host?: string };

/**
 * Checks `raw` without DNS: scheme, local names and IP literals in every
 * encoding (`http://2130706433`, `http://[::ffff:7f00:1]`, `http://localhost.`).
 * A URL that does not parse is blocked.
 */
export function inspectUrl(raw: string, policy: UrlPolicy = {}): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, rule: 'url.invalid', reason: `"${clip(raw)}" is not a valid absolute URL` };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const schemes = policy.allowedSchemes ?? ['http', 'https'];
  if (!schemes.includes(scheme)) {
    return {
      ok: false,
      rule: 'url.scheme',
      reason: `URL scheme "${scheme}:" is not allowed (allowed: ${schemes.join(', ')})`,
    };
  }
  const host = canonicalHost(url.hostname);
  if (!host) return { ok: false, rule: 'url.invalid', reason: `URL "${clip(raw)}" has no host` };
  if (policy.allowHosts?.includes(host)) return { ok: true, host };
  return inspectHost(host, policy);
}

/** {@link inspectUrl}, then — with `policy.resolve` — the resolved addresses of a host name. */
export async function checkUrl(raw: string, policy: UrlPolicy = {}): Promise<UrlVerdict> {
  const verdict = inspectUrl(raw, policy);
  if (!verdict.ok || !policy.resolve || policy.allowHosts?.includes(verdict.host)) return verdict;
  const { host } = verdict;
  if (addressRestriction(host) !== null) return verdict;
  let addresses: readonly string[];
  try {
    addresses = await policy.resolve(host);
  } catch (error) {
    return {
      ok: false,
      rule: 'url.unresolvable',
      reason: `Host "${host}" did not resolve: ${errorMessage(error)}`,
      host,
    };
  }
  if (addresses.length === 0)
    return { ok: false, rule: 'url.unresolvable', reason: `Host "${host}" has no addresses`, host };
  for (const address of addresses) {
    const restriction = addressRestriction(address);
    if (restriction === null) {
      return {
        ok: false,
        rule: 'url.unresolvable',
        reason: `Host "${host}" resolved to "${address}", not an IP address`,
        host,
      };
    }
    if (restriction !== undefined) {
      return {
        ok: false,
        rule: 'url.resolves_private',
        reason: `Host "${host}" resolves to ${address}, a ${restriction} address`,
        host,
      };
    }
  }
  return verdict;
}

function inspectHost(host: string, policy: UrlPolicy): UrlVerdict {
  const restriction = addressRestriction(host);
  if (restriction === null) {
    const suffixes = policy.blockedHostSuffixes ?? DEFAULT_BLOCKED_HOST_SUFFIXES;
    const suffix = suffixes.find((s) => host === s || host.endsWith(`.${s}`));
    if (suffix)
      return {
        ok: false,
        rule: 'url.blocked_host',
        reason: `Host "${host}" is a local name (${suffix})`,
        host,
      };
    return { ok: true, host };
  }
  if (restriction !== undefined) {
    return {
      ok: false,
      rule: 'url.private_address',
      reason: `Host "${host}" is a ${restriction} address`,
      host,
    };
  }
  return { ok: true, host };
}

/** Lower-case, brackets and trailing dots removed: `LOCALHOST.` and `[::1]` become `localhost` and `::1`. */
function canonicalHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host.replace(/\.+$/, '');
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
