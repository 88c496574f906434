/**
 * Property tests of the URL checks: a non-public IPv4 address written in any
 * encoding the WHATWG parser accepts, with any scheme case, userinfo, port,
 * trailing dot, percent-encoding and stray tabs, newlines or controls, is
 * blocked — as a URL argument, a scheme-less one, or an absolute URL under
 * any key — and public addresses written plainly are not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipv4Restriction } from '../../src/safety/guardrails/ip-address.js';
import { toolArgsGuardrail } from '../../src/safety/guardrails/tool-args.js';
import { inspectUrl } from '../../src/safety/guardrails/url-check.js';

const PRIVATE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0a80000, 16],
  [0xe0000000, 4],
  [0xf0000000, 4],
];

const privateAddress = fc
  .tuple(fc.constantFrom(...PRIVATE_RANGES), fc.nat())
  .map(([[base, bits], n]) => (base + (n % 2 ** (32 - bits))) >>> 0);

const publicAddress = fc
  .integer({ min: 0x01000000, max: 0xdfffffff })
  .filter((a) => ipv4Restriction(a) === undefined);

type Radix = 8 | 10 | 16;
type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

function number(value: number, radix: Radix): string {
  if (radix === 16) return `0x${value.toString(16)}`;
  if (radix === 8) return `0${value.toString(8)}`;
  return String(value);
}

/** `a.b.c.d`, `a.b.cd`, `a.bcd` or `abcd`, each part in its own radix. */
function ipv4Host(address: number, parts: 1 | 2 | 3 | 4, radixes: readonly Radix[]): string {
  const bytes = [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255];
  const head = bytes.slice(0, parts - 1);
  const rest = bytes.slice(parts - 1).reduce((sum, b) => sum * 256 + b, 0);
  return [...head, rest].map((value, i) => number(value, radixes[i % radixes.length]!)).join('.');
}

function ipv6Host(address: number, dotted: boolean): string {
  const dottedQuad = [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255].join('.');
  const hex = `${(address >>> 16).toString(16)}:${(address & 0xffff).toString(16)}`;
  return `[::ffff:${dotted ? dottedQuad : hex}]`;
}

const percentEncode = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

const hostSpelling = fc.record({
  parts: fc.constantFrom(1, 2, 3, 4) as fc.Arbitrary<1 | 2 | 3 | 4>,
  radixes: fc.array(fc.constantFrom(8, 10, 16) as fc.Arbitrary<Radix>, { minLength: 1, maxLength: 4 }),
  ipv6: fc.constantFrom('no', 'dotted', 'hex'),
  trailingDot: fc.boolean(),
  percent: fc.boolean(),
});

const dressing = fc.record({
  scheme: fc.constantFrom('http', 'https', 'HTTP', 'hTtPs'),
  slashes: fc.constantFrom('//', '\\\\', '/\\', '///'),
  userinfo: fc.constantFrom('', 'user@', 'evil.com@', 'a:b@'),
  port: fc.constantFrom('', ':80', ':8080'),
  path: fc.constantFrom('', '/', '/latest/meta-data', '?q=1#x'),
  strays: fc.array(fc.tuple(fc.nat(), fc.constantFrom('\t', '\n', '\r')), { maxLength: 4 }),
  edges: fc.constantFrom('', ' ', '\u0000', '\u001f '),
});

function spellHost(address: number, spelling: ValueOf<typeof hostSpelling>): string {
  if (spelling.ipv6 !== 'no') return ipv6Host(address, spelling.ipv6 === 'dotted');
  const host = ipv4Host(address, spelling.parts, spelling.radixes) + (spelling.trailingDot ? '.' : '');
  return spelling.percent ? percentEncode(host) : host;
}

/** Inserts tabs and newlines where fetch would strip them, and controls at the ends. */
function scatter(text: string, d: ValueOf<typeof dressing>): string {
  let out = text;
  for (const [at, c] of d.strays) {
    const i = at % (out.length + 1);
    out = out.slice(0, i) + c + out.slice(i);
  }
  return d.edges + out + d.edges;
}

async function blockedAs(args: Record<string, unknown>): Promise<boolean> {
  const result = await toolArgsGuardrail().scan(
    { toolName: 'fetch_url', args, toolCallId: 'c1' },
    { signal: new AbortController().signal },
  );
  const findings = Array.isArray(result) ? result : (result?.findings ?? []);
  return findings.some((f) => f.rule.startsWith('url.'));
}

describe('URL checks against encodings of non-public addresses', () => {
  it('blocks every spelling, as fetch reads it', async () => {
    await fc.assert(
      fc.asyncProperty(privateAddress, hostSpelling, dressing, async (address, spelling, d) => {
        const host = spellHost(address, spelling);
        const absolute = `${d.scheme}:${d.slashes}${d.userinfo}${host}${d.port}${d.path}`;
        const raw = scatter(absolute, d);
        // The spelling really is the address to the platform's parser.
        expect(new URL(raw).hostname.replace(/\.$/, '')).toMatch(/^\d+\.\d+\.\d+\.\d+$|^\[::ffff:/);
        expect(inspectUrl(raw).ok).toBe(false);
        expect(await blockedAs({ url: raw })).toBe(true);
        expect(await blockedAs({ anything: raw })).toBe(true);
        expect(await blockedAs({ url: scatter(`${d.userinfo}${host}${d.port}${d.path}`, d) })).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('allows public addresses written plainly', async () => {
    await fc.assert(
      fc.asyncProperty(publicAddress, dressing, async (address, d) => {
        const raw = scatter(`${d.scheme}://${ipv4Host(address, 4, [10])}${d.port}${d.path}`, d);
        expect(inspectUrl(raw).ok).toBe(true);
        expect(await blockedAs({ url: raw })).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
