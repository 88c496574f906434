import { describe, expect, it } from 'vitest';
import { addressRestriction, parseIPv4, parseIPv6 } from '../../src/safety/guardrails/ip-address.js';
import { urlParserInput } from '../../src/safety/guardrails/normalize.js';
import { checkAddresses, checkUrl, inspectUrl } from '../../src/safety/guardrails/url-check.js';

describe('inspectUrl', () => {
  it.each([
    ['file:///etc/passwd', 'url.scheme'],
    ['ftp://example.com/x', 'url.scheme'],
    ['gopher://example.com', 'url.scheme'],
    ['data:text/html,<script>', 'url.scheme'],
    ['javascript:alert(1)', 'url.scheme'],
    ['http://localhost/admin', 'url.blocked_host'],
    ['http://LOCALHOST:8080', 'url.blocked_host'],
    ['http://localhost./', 'url.blocked_host'],
    ['http://api.localhost/', 'url.blocked_host'],
    ['http://metadata.google.internal/computeMetadata', 'url.blocked_host'],
    ['http://printer.local/', 'url.blocked_host'],
    ['http://127.0.0.1/', 'url.private_address'],
    ['http://127.1/', 'url.private_address'],
    ['http://2130706433/', 'url.private_address'],
    ['http://0177.0.0.1/', 'url.private_address'],
    ['http://0x7f000001/', 'url.private_address'],
    ['http://0x7f.0.0.1/', 'url.private_address'],
    ['http://127.0.0.1./', 'url.private_address'],
    ['http://0.0.0.0:8000/', 'url.private_address'],
    ['http://10.1.2.3/', 'url.private_address'],
    ['http://172.16.0.1/', 'url.private_address'],
    ['http://172.31.255.255/', 'url.private_address'],
    ['http://192.168.1.1/', 'url.private_address'],
    ['http://169.254.169.254/latest/meta-data/', 'url.private_address'],
    ['http://100.64.0.1/', 'url.private_address'],
    ['http://100.127.255.254/', 'url.private_address'],
    ['http://[::1]/', 'url.private_address'],
    ['http://[::]/', 'url.private_address'],
    ['http://[0:0:0:0:0:0:0:1]/', 'url.private_address'],
    ['http://[::ffff:127.0.0.1]/', 'url.private_address'],
    ['http://[::ffff:7f00:1]/', 'url.private_address'],
    ['http://[::ffff:a9fe:a9fe]/', 'url.private_address'],
    ['http://[fc00::1]/', 'url.private_address'],
    ['http://[fd12:3456::1]/', 'url.private_address'],
    ['http://[fe80::1]/', 'url.private_address'],
    ['http://[64:ff9b::7f00:1]/', 'url.private_address'],
    ['http://[2002:7f00:1::]/', 'url.private_address'],
    ['http://evil.com@127.0.0.1/', 'url.private_address'],
    ['http://user:pass@localhost/', 'url.blocked_host'],
    ['http://127.0.0.1#@evil.com/', 'url.private_address'],
    ['http:\\\\127.0.0.1\\admin', 'url.private_address'],
    ['HTTP://127.0.0.1', 'url.private_address'],
    ['not a url', 'url.invalid'],
    ['http://', 'url.invalid'],
  ])('blocks %s (%s)', (url, rule) => {
    const verdict = inspectUrl(url);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? undefined : verdict.rule).toBe(rule);
  });

  it.each([
    'https://example.com/page',
    'http://example.com:8080/x?y=1',
    'https://8.8.8.8/',
    'https://[2606:4700:4700::1111]/',
    'https://user@example.com/',
    'https://localhost.example.com/',
    'https://100.128.0.1/',
    'https://172.32.0.1/',
    'https://11.0.0.1/',
  ])('allows %s', (url) => {
    expect(inspectUrl(url)).toMatchObject({ ok: true });
  });

  it('allows a host on the allow list on one port only when the entry names a port', () => {
    const policy = { allowHosts: ['127.0.0.1:8080', '[::1]:3000', 'Intranet.Example'] };
    expect(inspectUrl('http://127.0.0.1:8080/', policy)).toMatchObject({ ok: true, allowListed: true });
    expect(inspectUrl('http://127.0.0.1:8081/', policy)).toMatchObject({ ok: false });
    expect(inspectUrl('http://127.0.0.1/', policy)).toMatchObject({ ok: false });
    expect(inspectUrl('http://[::1]:3000/', policy)).toMatchObject({ ok: true });
    expect(inspectUrl('https://intranet.example:444/', policy)).toMatchObject({
      ok: true,
      allowListed: true,
    });
    expect(inspectUrl('https://127.0.0.1:443/', { allowHosts: ['127.0.0.1:443'] })).toMatchObject({
      ok: true,
    });
  });

  it('reads the URL exactly as fetch does: tabs and newlines anywhere, controls at the ends', () => {
    expect(inspectUrl('ht\ttp://127.0.0.1/')).toMatchObject({ ok: false, rule: 'url.private_address' });
    expect(inspectUrl('\u0000 http://loc\nalhost/ \u001f')).toMatchObject({
      ok: false,
      rule: 'url.blocked_host',
    });
    expect(urlParserInput('\u0001 h\tt\ntp://x/\r\n ')).toBe('http://x/');
    expect(urlParserInput(`a${' '.repeat(100_000)}b`)).toHaveLength(100_002);
  });

  it('blocks a host made of trailing dots, however many', () => {
    expect(inspectUrl(`http://localhost${'.'.repeat(50)}/`)).toMatchObject({
      ok: false,
      rule: 'url.blocked_host',
    });
  });

  it('allows hosts on the allow list and schemes the policy adds', () => {
    expect(inspectUrl('http://localhost:3000/', { allowHosts: ['localhost'] })).toMatchObject({ ok: true });
    expect(inspectUrl('ftp://example.com/', { allowedSchemes: ['ftp'] })).toMatchObject({ ok: true });
  });
});

describe('checkUrl with DNS resolution', () => {
  it('blocks a public-looking name that resolves to a private address', async () => {
    const verdict = await checkUrl('https://rebind.example/', {
      resolve: async () => ['93.184.216.34', '10.0.0.5'],
    });
    expect(verdict).toMatchObject({ ok: false, rule: 'url.resolves_private' });
  });

  it('blocks a name that resolves to an IPv4-mapped loopback', async () => {
    const verdict = await checkUrl('https://x.example/', { resolve: async () => ['::ffff:127.0.0.1'] });
    expect(verdict).toMatchObject({ ok: false, rule: 'url.resolves_private' });
  });

  it('blocks a name that does not resolve', async () => {
    const failing = await checkUrl('https://nx.example/', {
      resolve: async () => Promise.reject(new Error('ENOTFOUND')),
    });
    expect(failing).toMatchObject({ ok: false, rule: 'url.unresolvable' });
    const empty = await checkUrl('https://nx.example/', { resolve: async () => [] });
    expect(empty).toMatchObject({ ok: false, rule: 'url.unresolvable' });
  });

  it('checks every address a name resolves to', () => {
    expect(checkAddresses('x.example', ['93.184.216.34', '2606:4700::1'])).toEqual({
      ok: true,
      host: 'x.example',
    });
    expect(checkAddresses('x.example', ['93.184.216.34', 'fd00::1'])).toMatchObject({
      ok: false,
      rule: 'url.resolves_private',
    });
    expect(checkAddresses('x.example', ['not-an-ip'])).toMatchObject({ ok: false, rule: 'url.unresolvable' });
  });

  it('never resolves an allow-listed host', async () => {
    const resolve = async () => ['127.0.0.1'];
    expect(await checkUrl('http://app.test:8080/', { resolve, allowHosts: ['app.test:8080'] })).toMatchObject(
      {
        ok: true,
      },
    );
  });

  it('allows a name whose addresses are all public, and never resolves IP literals', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return ['93.184.216.34'];
    };
    expect(await checkUrl('https://example.com/', { resolve })).toMatchObject({ ok: true });
    expect(await checkUrl('https://8.8.8.8/', { resolve })).toMatchObject({ ok: true });
    expect(asked).toEqual(['example.com']);
  });
});

describe('IP parsing', () => {
  it.each([
    ['127.0.0.1', 0x7f000001],
    ['2130706433', 0x7f000001],
    ['0177.0.0.1', 0x7f000001],
    ['0x7f000001', 0x7f000001],
    ['127.1', 0x7f000001],
    ['127.0.1', 0x7f000001],
    ['0x7f.1', 0x7f000001],
    ['10.', 10],
  ])('parses IPv4 %s', (text, value) => {
    expect(parseIPv4(text)).toBe(value);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', 'example.com', '08.0.0.1', '4294967296', ''])(
    'rejects IPv4 %s',
    (text) => {
      expect(parseIPv4(text)).toBeUndefined();
    },
  );

  it('parses IPv6 with compression, embedded IPv4 and zones', () => {
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('[::ffff:127.0.0.1]')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1::2::3')).toBeUndefined();
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseIPv6('12345::')).toBeUndefined();
  });

  it.each([
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['::ffff:0:808:808', 'IPv4-translated'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['64:ff9b::7f00:1', 'NAT64 loopback'],
  ])('treats %s as not public (%s)', (address, restriction) => {
    expect(addressRestriction(address)).toBe(restriction);
  });
});
