/**
 * Server-side request forgery checks for URLs a tool is about to fetch. The
 * URL is parsed by the platform's WHATWG parser — the one `fetch` uses — so
 * tabs and newlines inside the scheme, userinfo tricks, backslashes,
 * percent-encoded hosts and numeric IPv4 encodings resolve to the host that
 * would really be contacted; the host is then checked against local names
 * and non-public address ranges, optionally after DNS.
 * @module
 */
import { errorMessage } from '../../core/errors.js';
import { addressRestriction } from './ip-address.js';

/** What a URL may reach. */
export interface UrlPolicy {
  /** Allowed schemes, lower-case, without `:`. Default `['http', 'https']`. */
  allowedSchemes?: readonly string[];
  /**
   * Hosts exempt from the host and address checks (e.g. your own local
   * service): `host` for any port, or `host:port` / `[v6]:port` for one port
   * only (the scheme's default port when the URL names none). Case-insensitive.
   */
  allowHosts?: readonly string[];
  /** Names blocked with all their subdomains. Default {@link DEFAULT_BLOCKED_HOST_SUFFIXES}. */
  blockedHostSuffixes?: readonly string[];
  /**
   * Resolves a host name to its addresses (e.g. `dns.promises.lookup(host, { all: true })`
   * mapped to strings). When given, every address must be public. A name that
   * does not resolve is blocked. The signal aborts when the scan's budget runs
   * out. Resolution is checked once; a server that re-resolves at fetch time
   * can still be rebound — fetch with `safeFetch` (`tandem-agents/net`), which
   * checks the address it connects to.
   */
  resolve?: (host: string, options?: { signal?: AbortSignal }) => Promise<readonly string[]>;
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

/**
 * A URL check's verdict. `allowListed` marks a host exempted by
 * `policy.allowHosts`: its addresses are not checked either.
 */
export type UrlVerdict =
  | { ok: true; host: string; allowListed?: true }
  | { ok: false; rule: `url.${string}`; reason: string; host?: string };

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * Checks `raw` without DNS: scheme, local names and IP literals in every
 * encoding (`http://2130706433`, `http://[::ffff:7f00:1]`, `http://localhost.`).
 * A URL that does not parse is blocked.
 */
export function inspectUrl(raw: string, policy: UrlPolicy = {}): UrlVerdict {
  let url: URL;
  try {
    // No trimming of our own: the parser strips exactly what `fetch` strips.
    url = new URL(raw);
  } catch {
    return { ok: false, rule: 'url.invalid', reason: `"${clip(raw)}" is not a valid absolute URL` };
  }
  const scheme = url.protocol.slice(0, -1);
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
  if (isAllowListed(url, host, policy.allowHosts)) return { ok: true, host, allowListed: true };
  return inspectHost(host, policy);
}

/**
 * {@link inspectUrl}, then — with `policy.resolve` — the resolved addresses of
 * a host name ({@link checkAddresses}).
 */
export async function checkUrl(
  raw: string,
  policy: UrlPolicy = {},
  signal?: AbortSignal,
): Promise<UrlVerdict> {
  const verdict = inspectUrl(raw, policy);
  if (!verdict.ok || !policy.resolve || verdict.allowListed) return verdict;
  const { host } = verdict;
  if (addressRestriction(host) !== null) return verdict;
  let addresses: readonly string[];
  try {
    addresses = await policy.resolve(host, { signal });
  } catch (error) {
    return {
      ok: false,
      rule: 'url.unresolvable',
      reason: `Host "${host}" did not resolve: ${errorMessage(error)}`,
      host,
    };
  }
  return checkAddresses(host, addresses);
}

/**
 * Checks the addresses `host` resolved to: blocked unless there is at least
 * one and every one is a public IP address. A name that answers with a public
 * and a private address is blocked, since the client may connect to either.
 */
export function checkAddresses(host: string, addresses: readonly string[]): UrlVerdict {
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
  return { ok: true, host };
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

function isAllowListed(url: URL, host: string, allowHosts: readonly string[] | undefined): boolean {
  if (!allowHosts?.length) return false;
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  const withPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return allowHosts.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed === host || allowed === withPort;
  });
}

/** Lower-case, brackets and trailing dots removed: `LOCALHOST.` and `[::1]` become `localhost` and `::1`. */
function canonicalHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  let end = host.length;
  while (end > 0 && host[end - 1] === '.') end--;
  return host.slice(0, end);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
