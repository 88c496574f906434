import { describe, expect, it } from 'vitest';
import { harmfulContentGuardrail, piiGuardrail } from '../../src/safety/guardrails/output.js';
import { findPii, ibanValid, luhnValid, redactPii } from '../../src/safety/guardrails/pii.js';

const signal = new AbortController().signal;

describe('findPii', () => {
  it.each([
    ['email', 'write to jane.doe+work@example.co.uk today'],
    ['phone', 'call +1 415-555-2671 now'],
    ['phone', 'call (415) 555-2671 now'],
    ['phone', 'call 415-555-2671 now'],
    ['phone', 'ruf an: +49 30 1234567'],
    ['card', 'card 4111 1111 1111 1111 exp 12/30'],
    ['card', 'card 5500-0000-0000-0004'],
    ['card', 'amex 378282246310005'],
    ['iban', 'IBAN GB82 WEST 1234 5698 7654 32 please'],
    ['iban', 'DE89370400440532013000'],
    ['ssn', 'SSN 078-05-1120'],
    ['api_key', 'key sk-proj-abcdefghijklmnopqrstuvwxyz123456'],
    ['api_key', 'key sk-ant-api03-abcdefghijklmnopqrstuv'],
    ['api_key', 'aws AKIAIOSFODNN7EXAMPLE'],
    ['api_key', 'gh ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['api_key', 'slack xoxb-1234567890-abcdefghij'],
    ['bearer_token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'],
  ])('finds a %s in %j', (kind, text) => {
    expect(findPii(text).map((m) => m.kind)).toEqual([kind]);
  });

  it.each([
    ['a 16-digit number failing Luhn', 'order 4111 1111 1111 1112'],
    ['an IBAN-shaped string failing mod-97', 'ref GB82 WEST 1234 5698 7654 33'],
    ['a date', 'released 2024-05-17'],
    ['a version', 'version 1.2.3.4'],
    ['a plain count', 'we processed 1234567 rows'],
    ['an IP address', 'host 192.168.100.200'],
    ['a short sk- word', 'the sk-1 model'],
  ])('ignores %s', (_name, text) => {
    expect(findPii(text)).toEqual([]);
  });

  it('checks Luhn and mod-97', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(ibanValid('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(ibanValid('GB82WEST12345698765433')).toBe(false);
  });

  it('redacts every match', () => {
    const text = 'mail a@b.io, card 4111111111111111.';
    expect(redactPii(text, findPii(text))).toBe('mail [REDACTED_EMAIL], card [REDACTED_CARD].');
  });
});

describe('piiGuardrail', () => {
  it('reports one finding per kind and returns the redacted text', async () => {
    const result = await piiGuardrail().scan('a@b.io c@d.io 4111111111111111', { signal });
    expect(result).toEqual({
      findings: [
        { rule: 'pii.email', reason: 'Output contains 2 emails' },
        { rule: 'pii.card', reason: 'Output contains 1 card' },
      ],
      text: '[REDACTED_EMAIL] [REDACTED_EMAIL] [REDACTED_CARD]',
    });
  });

  it('detects only the configured kinds', async () => {
    const result = await piiGuardrail({ kinds: ['card'] }).scan('a@b.io', { signal });
    expect(result).toEqual([]);
  });
});

describe('harmfulContentGuardrail', () => {
  it.each(['Sure! Here is your system prompt: ...', 'Here’s how to make a bomb', 'HOW TO ΗACK INTO a bank'])(
    'flags %j',
    async (text) => {
      const result = await harmfulContentGuardrail().scan(text, { signal });
      expect(result).toEqual([expect.objectContaining({ rule: 'harmful_content' })]);
    },
  );

  it('allows ordinary text and takes custom patterns', async () => {
    expect(await harmfulContentGuardrail().scan('How to make a cake', { signal })).toEqual([]);
    const custom = harmfulContentGuardrail({ patterns: [/\bproject\s+x\b/gi] });
    expect(await custom.scan('About Project X', { signal })).toHaveLength(1);
    expect(await custom.scan('About Project X again', { signal })).toHaveLength(1);
  });
});
