import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contextPerConversation, TokenCounter } from '../../src/context/index.js';
import type { Message } from '../../src/core/messages.js';
import { createResilientInvoker, defineTool, ModelError } from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { allText, runCollect, setup } from '../support/executor-fixtures.js';

/** The same text whether the tool fails or not: only the notes differ between the two runs. */
const OUTPUT = `Error: the index is rebuilding ${'x'.repeat(600)}`;

function lookup(fails: boolean) {
  return defineTool({
    name: 'lookup',
    description: 'Looks a term up',
    parameters: z.object({ term: z.string() }),
    execute: () => {
      if (fails) throw new Error(OUTPUT.slice('Error: '.length));
      return OUTPUT;
    },
  });
}

const TURNS = 60;
const script = [
  ...Array.from({ length: TURNS }, (_, i) => ({
    toolCalls: [{ name: 'lookup', args: { term: `term ${String(i).padStart(3, '0')}` } }],
  })),
  { text: 'done' },
];

async function longRun(fails: boolean) {
  const summarizer = new ScriptedModel([{ text: 'SUMMARY' }], { loop: true, stream: false });
  const { model, executor } = setup(script, {
    tools: [lookup(fails)],
    limits: { maxIterations: TURNS + 5 },
    context: { manager: contextPerConversation({ summarizer, contextWindow: 8000 }) },
  });
  const { result, error } = await runCollect(executor, 'look every term up');
  expect(error).toBeUndefined();
  return { summaries: summarizer.requests.length, requests: model.requests, result: result! };
}

describe('context compaction on turns that carry notes', () => {
  it('is remembered: notes on every turn cost no more summariser calls than no notes', async () => {
    const plain = await longRun(false);
    const noted = await longRun(true);
    expect(allText(noted.requests.at(-1)!.messages)).toContain('CRITICAL: You have failed');
    expect(plain.summaries).toBeGreaterThan(0);
    expect(noted.summaries).toBe(plain.summaries);
  });

  it('keeps the cached prefix as stable as without notes, and never carries a note into a later request', async () => {
    const stable = (requests: readonly { messages: Message[] }[]) => {
      let kept = 0;
      for (let i = 1; i < requests.length; i++) {
        const before = requests[i - 1]!.messages;
        const now = requests[i]!.messages;
        // The previous request minus its last message (which carried the note) is a prefix of this one.
        const n = before.length - 1;
        if (n <= now.length && JSON.stringify(before.slice(0, n)) === JSON.stringify(now.slice(0, n))) kept++;
      }
      return kept;
    };
    const plain = await longRun(false);
    const noted = await longRun(true);
    expect(stable(noted.requests)).toBe(stable(plain.requests));
    for (const request of noted.requests) {
      const earlier = request.messages.slice(0, -1);
      expect(allText(earlier)).not.toContain('[Tool error');
      expect(allText(earlier)).not.toContain('CRITICAL');
    }
  });

  it('remembers a recovery compaction made on a noted turn, and the note goes only on the recovered request', async () => {
    const history: Message[] = [{ role: 'user', content: 'start' }];
    for (let i = 0; i < 30; i++) {
      history.push(
        { role: 'assistant', content: [{ type: 'tool_call', id: `h${i}`, name: 'lookup', arguments: '{}' }] },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: `h${i}`, toolName: 'lookup', content: 'y'.repeat(400) },
          ],
        },
      );
    }
    const lookupCall = { toolCalls: [{ name: 'lookup', args: { term: 'a' } }] };
    const model = new ScriptedModel([
      lookupCall,
      {
        error: new ModelError('context_length', 'maximum context length is 3000 tokens', {
          contextLimit: 3000,
        }),
      },
      lookupCall,
      { text: 'done' },
    ]);
    const runtime = testRuntime();
    const { executor } = setup([], {
      model,
      resilience: { invoker: () => createResilientInvoker({ models: [model], runtime }) },
      runtime,
      tools: [lookup(true)],
      context: { manager: contextPerConversation({ contextWindow: 128_000, counter: new TokenCounter() }) },
    });
    const { result, events } = await runCollect(executor, 'go', { history });
    expect(result?.output).toBe('done');
    const [, rejected, recovered, later] = model.requests;
    expect(allText(rejected!.messages.slice(-1))).toContain('[Tool error');
    expect(allText(recovered!.messages.slice(-1))).toContain('[Tool error');
    expect(allText(later!.messages.slice(0, -1))).not.toContain('[Tool error');
    // The next turn's compression starts from the remembered (pruned) compaction, not from scratch.
    const [recovery, next] = events.filter((e) => e.type === 'compression');
    expect(next!.tokensBefore).toBeLessThan(recovery!.tokensBefore);
  });
});
