/**
 * Context-layer bench: per-turn token accounting over a 10 000-message
 * history, and the time to compress a 200k-token history with a summariser
 * that answers instantly. Run: `npx tsx bench/context.ts`.
 */
import { performance } from 'node:perf_hooks';
import { ContextCompressor, createContextManager, TokenCounter } from '../src/context/index.js';
import type { Message } from '../src/core/messages.js';
import { emptyUsage } from '../src/core/usage.js';
import type { ChatModel } from '../src/model/types.js';

const instantSummarizer: ChatModel = {
  id: 'bench:summarizer',
  async generate() {
    return {
      message: { role: 'assistant', content: [{ type: 'text', text: '## Active Task\nbenchmark' }] },
      finishReason: 'stop',
      usage: emptyUsage(),
    };
  },
};

function message(i: number): Message {
  switch (i % 4) {
    case 0:
      return {
        role: 'user',
        content: `Please check item ${i}: does the config still parse after the change?`,
      };
    case 1:
      return {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: `call_${i}`, name: 'read_file', arguments: `{"path":"src/item-${i}.ts"}` },
        ],
      };
    case 2:
      return {
        role: 'tool',
        content: [
          {
            type: 'tool_result',
            toolCallId: `call_${i - 1}`,
            toolName: 'read_file',
            content: `export const item${i} = { name: "item ${i}", enabled: true, retries: 3 };\n`.repeat(4),
          },
        ],
      };
    default:
      return {
        role: 'assistant',
        content: [{ type: 'text', text: `Item ${i} parses; nothing else changed.` }],
      };
  }
}

function stats(samples: number[]): { mean: number; p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, p50: at(0.5), p99: at(0.99) };
}

async function perTurn(label: string, contextWindow: number, turns = 2000) {
  const counter = new TokenCounter({ model: 'gpt-4o' });
  await counter.ready();
  const compressor = new ContextCompressor({ counter, summarizer: instantSummarizer, contextWindow });
  const manager = createContextManager({ compressor });
  const history: Message[] = Array.from({ length: 10_000 }, (_, i) => message(i));
  const system = 'You are a careful assistant.';
  await manager.prepareRequest({ system, messages: history });
  const samples: number[] = [];
  for (let t = 0; t < turns; t++) {
    const start = performance.now();
    history.push(message(10_000 + t));
    await manager.prepareRequest({ system, messages: history });
    samples.push(performance.now() - start);
  }
  const s = stats(samples);
  return { label, ...s, tokens: manager.lastCount };
}

async function compressOnce() {
  const counter = new TokenCounter({ model: 'gpt-4o' });
  await counter.ready();
  const messages: Message[] = [];
  for (let i = 0; counter.countMessages(messages) < 200_000; i += 400) {
    for (let j = i; j < i + 400; j++) messages.push(message(j));
  }
  const fresh = new TokenCounter({ model: 'gpt-4o' });
  await fresh.ready();
  const cold = new ContextCompressor({
    counter: fresh,
    summarizer: instantSummarizer,
    contextWindow: 128_000,
  });
  let start = performance.now();
  const result = await cold.compress({ messages });
  const coldMs = performance.now() - start;
  const warm = new ContextCompressor({ counter, summarizer: instantSummarizer, contextWindow: 128_000 });
  start = performance.now();
  await warm.compress({ messages });
  const warmMs = performance.now() - start;
  return { result, coldMs, warmMs, messages: messages.length };
}

const rows = [
  await perTurn('10k history, under threshold (no compaction)', 10_000_000),
  await perTurn('10k history, 128k window (compaction applied)', 128_000),
];
const compress = await compressOnce();

const pad = (s: string, n: number) => s.padEnd(n);
const ms = (v: number) => `${v.toFixed(3)} ms`;
console.log('\nPer-turn accounting: append one message, prepareRequest (2000 turns, o200k_base)');
console.log(`${pad('scenario', 50)}${pad('mean', 13)}${pad('p50', 13)}${pad('p99', 13)}tokens sent`);
for (const r of rows)
  console.log(
    `${pad(r.label, 50)}${pad(ms(r.mean), 13)}${pad(ms(r.p50), 13)}${pad(ms(r.p99), 13)}${r.tokens}`,
  );
console.log('\nCompress a 200k-token history (zero-latency summariser, 128k window)');
console.log(
  `${pad('messages', 12)}${pad('tokens before', 16)}${pad('tokens after', 15)}${pad('method', 10)}${pad('cold (tokenize)', 18)}warm (cached counts)`,
);
console.log(
  `${pad(String(compress.messages), 12)}${pad(String(compress.result.tokensBefore), 16)}${pad(String(compress.result.tokensAfter), 15)}${pad(String(compress.result.method), 10)}${pad(ms(compress.coldMs), 18)}${ms(compress.warmMs)}`,
);
