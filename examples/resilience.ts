/**
 * Retry and fallback, offline: two scripted models that fail the way real
 * providers do, behind the resilient invoker. Prints the `retry`, `fallback`
 * and `token` events of three turns (the third recovers from a context-length
 * error through the compression seam).
 *
 * Run: npx tsx examples/resilience.ts
 */
import {
  type CompressHook,
  createResilientInvoker,
  EventBus,
  ModelError,
  systemClock,
  userMessage,
} from 'tandem-agents';
import { ScriptedModel } from 'tandem-agents/testing';

const primary = new ScriptedModel(
  [
    // Turn 1: overloaded (retried after a backoff wait), then rate-limited (falls back at once).
    { error: new ModelError('overloaded', 'primary: 529 overloaded') },
    { error: new ModelError('rate_limit', 'primary: 429 too many requests', { retryAfterMs: 30_000 }) },
    // Turn 2: the chain starts from the primary again, which has recovered.
    { text: 'Primary is back: 2 + 2 = 4.' },
    // Turn 3: the prompt no longer fits; the context layer compresses it and the call is retried.
    {
      error: new ModelError('context_length', 'maximum context length is 32768 tokens', {
        contextLimit: 32_768,
      }),
    },
    { text: 'Answered from the compressed conversation.' },
  ],
  { id: 'scripted:primary' },
);
const backup = new ScriptedModel([{ text: 'Backup here: 2 + 2 = 4.' }], { id: 'scripted:backup' });

const invoker = createResilientInvoker({
  models: [primary, backup],
  // Short waits so the example finishes at once; the defaults are 2 s, 4 s, 8 s.
  retry: { baseDelayMs: 50 },
});

const bus = new EventBus({ runId: 'example', clock: systemClock });
bus.on('retry', (e) =>
  console.log(`  retry    ${e.model} attempt ${e.attempt} in ${e.delayMs} ms (${e.error.kind})`),
);
bus.on('fallback', (e) => console.log(`  fallback ${e.from} → ${e.to} (${e.error.kind})`));
const tokens: string[] = [];
bus.on('token', (e) => tokens.push(e.delta));

const compress: CompressHook = async (request, info) => {
  console.log(`  compress for ${info.reason}, limit ${info.contextLimit ?? 'unknown'}`);
  return { ...request, messages: request.messages.slice(-1) };
};

for (const turn of [1, 2, 3]) {
  console.log(`turn ${turn}`);
  tokens.length = 0;
  const reply = await invoker.invoke({ messages: [userMessage('What is 2 + 2?')] }, { emit: bus, compress });
  const text = reply.message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  console.log(`  tokens   ${tokens.map((t) => JSON.stringify(t)).join(' ')}`);
  console.log(`  reply    ${text}`);
}
