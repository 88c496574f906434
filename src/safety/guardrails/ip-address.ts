/**
 * IPv4 and IPv6 parsing and the address ranges a server-side request must
 * not reach (loopback, private, link-local, CGNAT, unique-local, …),
 * including IPv4 addresses embedded in IPv6 (mapped, compatible, NAT64, 6to4).
 * @module
 */

/**
 * Parses an IPv4 host the way URL parsers and `inet_aton` do: 1–4 parts,
 * each decimal, octal (leading `0`) or hex (`0x`), the last part filling the
 * remaining bytes — so `2130706433`, `0177.0.0.1`, `0x7f000001` and `127.1`
 * are all 127.0.0.1. A trailing dot is allowed. Returns the address as an
 * unsigned 32-bit number, or `undefined` when `host` is not an IPv4 address.
 */
export function parseIPv4(host: string): number | undefined {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 1 || parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    const value = parsePart(part);
    if (value === undefined) return undefined;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return undefined;
  if (last >= 256 ** (4 - values.length)) return undefined;
  let address = 0;
  for (let i = 0; i < values.length; i++) address += values[i]! * 256 ** (3 - i);
  return address + last;
}

function parsePart(part: string): number | undefined {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return Number.parseInt(part.slice(1), 8);
  if (/^(?:0|[1-9]\d*)$/.test(part)) return Number(part);
  return undefined;
}

/** Parses an IPv6 address (brackets and a `%zone` allowed) into its eight 16-bit groups. */
export function parseIPv6(text: string): number[] | undefined {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  let tail: number[] = [];
  if (s.includes('.')) {
    const at = s.lastIndexOf(':');
    const v4 = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(s.slice(at + 1)) ? parseIPv4(s.slice(at + 1)) : undefined;
    if (v4 === undefined || at < 0) return undefined;
    tail = [v4 >>> 16, v4 & 0xffff];
    s = s.slice(0, at);
    if (s.endsWith(':')) s += ':';
    else if (s === '') return undefined;
  }
  const want = 8 - tail.length;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = want - left.length - right.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const all = [...left, ...new Array<string>(fill).fill('0'), ...right];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return [...all.map((g) => Number.parseInt(g, 16)), ...tail];
}

const IPV4_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV4_TABLE = IPV4_RANGES.map(([base, bits, label]) => ({
  base: parseIPv4(base) as number,
  size: 2 ** (32 - bits),
  label,
}));

/** Why an IPv4 address (as a number) is not public, or `undefined` when it is. */
export function ipv4Restriction(address: number): string | undefined {
  for (const range of IPV4_TABLE) {
    if (address >= range.base && address < range.base + range.size) return range.label;
  }
  return undefined;
}

/** Why an IPv6 address (eight groups) is not public, or `undefined` when it is. */
export function ipv6Restriction(g: readonly number[]): string | undefined {
  const zerosBefore = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = (hi: number, lo: number) => ipv4Restriction(hi * 0x10000 + lo);
  if (zerosBefore(8)) return 'unspecified';
  if (zerosBefore(7) && g[7] === 1) return 'loopback';
  if (zerosBefore(5) && g[5] === 0xffff) return withPrefix('IPv4-mapped', embedded(g[6]!, g[7]!));
  if (zerosBefore(6)) return withPrefix('IPv4-compatible', embedded(g[6]!, g[7]!));
  // SIIT (::ffff:0:a.b.c.d) and local-use NAT64 (64:ff9b:1::/48) are translated by
  // gateways inside the network, so no address in them counts as public.
  if (zerosBefore(4) && g[4] === 0xffff && g[5] === 0) return 'IPv4-translated';
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'local-use NAT64';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return withPrefix('NAT64', embedded(g[6]!, g[7]!));
  }
  if (g[0] === 0x2002) return withPrefix('6to4', embedded(g[1]!, g[2]!));
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'unique-local';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'site-local';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && g[1] === 0xdb8) return 'documentation';
  if (first === 0x100 && zerosBefore(4)) return 'discard-only';
  return undefined;
}

function withPrefix(prefix: string, inner: string | undefined): string | undefined {
  return inner === undefined ? undefined : `${prefix} ${inner}`;
}

/**
 * Why an IP address literal (IPv4 in any encoding, or IPv6) is not public;
 * `undefined` when it is public, `null` when `text` is not an IP address.
 */
export function addressRestriction(text: string): string | undefined | null {
  if (text.includes(':')) {
    const groups = parseIPv6(text);
    return groups ? ipv6Restriction(groups) : null;
  }
  const v4 = parseIPv4(text);
  return v4 === undefined ? null : ipv4Restriction(v4);
}
