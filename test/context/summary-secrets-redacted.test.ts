import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/context/index.js';
import { ContextCompressor, type Message, type ModelRequest, textOf } from '../../src/index.js';
import { assistant, call, fakeSummarizer, result, user } from './helpers.js';

const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/** What the summariser model was sent, system prompt and prompt together. */
function promptText(request: ModelRequest): string {
  const system = typeof request.system === 'string' ? request.system : '';
  return `${system}\n${request.messages.map(textOf).join('\n')}`;
}

/** A conversation whose middle (what gets summarised) holds `middle`, long enough to be compressed. */
function conversationWith(middle: Message[]): Message[] {
  return [
    user('deploy the service'),
    assistant('on it'),
    user('go'),
    ...middle,
    ...Array.from({ length: 30 }, (_, i) => [
      user(`step ${i} ${'x'.repeat(300)}`),
      assistant(`ok ${i}`),
    ]).flat(),
    user('last question'),
    assistant('last answer'),
  ];
}

async function summariserPrompt(middle: Message[]): Promise<string> {
  const summarizer = fakeSummarizer(() => '## Active Task\ndeploy');
  const compressor = new ContextCompressor({ summarizer, contextWindow: 6000 });
  const out = await compressor.compress({ messages: conversationWith(middle) });
  expect(out.method).toBe('summary');
  expect(summarizer.requests).toHaveLength(1);
  return promptText(summarizer.requests[0]!);
}

describe('secrets never reach the summariser', () => {
  it.each([
    [
      'an API key',
      'export OPENAI_API_KEY=sk-proj-Abcdefghijklmnopqrstuvwxyz123456',
      'sk-proj-Abcdefgh',
      'OPENAI_API_KEY=[REDACTED_API_KEY]',
    ],
    [
      'a bearer token',
      'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"',
      'eyJhbGciOiJIUzI1NiJ9',
      'Authorization: [REDACTED_BEARER_TOKEN]',
    ],
    [
      'a password in KEY=value',
      'DB_PASSWORD=hunter2 ./migrate',
      'hunter2',
      'DB_PASSWORD=[REDACTED_SECRET] ./migrate',
    ],
    [
      'a password in JSON',
      '{"user": "admin", "password": "correct horse battery"}',
      'correct horse',
      '"password": "[REDACTED_SECRET]"',
    ],
    [
      'a password in a URL',
      'connect to postgres://admin:Tr0ub4dor@db.internal:5432/app',
      'Tr0ub4dor',
      'postgres://admin:[REDACTED_SECRET]@db.internal',
    ],
    ['a private key', `id_rsa:\n${PEM}`, 'MIIEowIBAAKCAQEA', '[REDACTED_PRIVATE_KEY]'],
    [
      'a client secret in YAML',
      "client_secret: 'q8Vz-2kLm'",
      'q8Vz-2kLm',
      "client_secret: '[REDACTED_SECRET]'",
    ],
  ])('redacts %s and keeps a placeholder', async (_kind, text, secret, placeholder) => {
    const prompt = await summariserPrompt([assistant(`I ran: ${text}`), user('and then?')]);
    expect(prompt).not.toContain(secret);
    expect(prompt).toContain(placeholder);
  });

  it('redacts tool call arguments, tool results and the previous summary too', async () => {
    const prompt = await summariserPrompt([
      assistant(formatSummary('Earlier: logged in with password=swordfish')),
      user('continue'),
      call('c1', 'http', '{"url":"https://api.example.com","headers":{"x-api-key":"k3y-v4lue"}}'),
      result('c1', 'env: AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'http'),
      assistant('fetched'),
    ]);
    for (const secret of ['swordfish', 'k3y-v4lue', 'wJalrXUtnFEMI']) expect(prompt).not.toContain(secret);
    expect(prompt).toContain('password=[REDACTED_SECRET]');
    expect(prompt).toContain('"x-api-key":"[REDACTED_SECRET]"');
    expect(prompt).toContain('AWS_SECRET_ACCESS_KEY=[REDACTED_SECRET]');
  });

  it('asks the summariser to keep the placeholders so the summary says a secret existed', async () => {
    const prompt = await summariserPrompt([assistant('DB_PASSWORD=hunter2'), user('ok')]);
    expect(prompt).toMatch(/keep its placeholder so the reader knows a secret was there/);
  });

  it('leaves what only looks like a secret alone', async () => {
    const text = `MAX_TOKENS=500 PWD=/home/me token_count: 42 bypass=yes password=\${DB_PASSWORD}`;
    const prompt = await summariserPrompt([assistant(text), user('ok')]);
    expect(prompt).toContain(text);
  });

  it('does not change the conversation sent to the agent model', async () => {
    const recent = [assistant('DB_PASSWORD=hunter2'), user('ok')];
    const messages = [...conversationWith([assistant('a'), user('b')]), ...recent];
    const out = await new ContextCompressor({ summarizer: fakeSummarizer(), contextWindow: 6000 }).compress({
      messages,
    });
    expect(out.method).toBe('summary');
    expect(out.messages.slice(-2)).toEqual(recent);
  });
});
