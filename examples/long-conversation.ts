/**
 * A long tool-using conversation, offline: every turn goes through the
 * context manager (as the Executor's `prepareRequest` does), which counts the
 * request incrementally and compresses it when it passes half of an 8k
 * window — first by pruning old tool outputs, then by summarising the middle
 * with a scripted "flash" summariser. Prints every `compression` event.
 *
 * Run: npx tsx examples/long-conversation.ts
 */
import {
  type ChatModel,
  ContextCompressor,
  createContextManager,
  EventBus,
  emptyUsage,
  type Message,
  type ModelRequest,
  SystemPromptBuilder,
  summaryBodyOf,
  systemClock,
  TokenCounter,
  type ToolSpec,
} from 'tandem-agents';

// A scripted summariser: a real deployment passes a cheap model here (e.g. a flash-tier one).
let summaries = 0;
const summarizer: ChatModel = {
  id: 'scripted:summarizer',
  async generate(request: ModelRequest) {
    summaries++;
    const prompt = request.messages[0]!.content as string;
    const files = [...new Set(prompt.match(/src\/[\w-]+\.ts/g) ?? [])];
    const text = [
      '## Active Task',
      'Audit every module for unsafe `eval` use.',
      '## Completed Actions',
      `Summary #${summaries}: read ${files.length} more file(s)${prompt.includes('PREVIOUS SUMMARY') ? ', on top of the earlier summary' : ''}.`,
      '## Relevant Files',
      files.slice(-5).join(', ') || 'None',
    ].join('\n');
    return {
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      finishReason: 'stop',
      usage: emptyUsage(),
    };
  },
};

const readFile: ToolSpec = {
  name: 'read_file',
  description: 'Read a file of the workspace',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const bus = new EventBus({ runId: 'run_long', clock: systemClock });
bus.on('compression', (e) => {
  console.log(
    `  compression #${e.seq}: ${e.method} — ${e.tokensBefore} → ${e.tokensAfter} tokens, ` +
      `${e.messagesBefore} → ${e.messagesAfter} messages${e.reason ? ` (${e.reason})` : ''}`,
  );
});

const counter = new TokenCounter({ model: 'gpt-4o' });
await counter.ready();
const compressor = new ContextCompressor({ counter, summarizer, contextWindow: 8000 });
const context = createContextManager({ compressor });
const prompt = await new SystemPromptBuilder({ os: 'linux' }).build({ tools: [readFile] });

const history: Message[] = [{ role: 'user', content: 'Audit every module for unsafe eval use.' }];
for (let turn = 1; turn <= 80; turn++) {
  const path = `src/module-${turn}.ts`;
  history.push(
    {
      role: 'assistant',
      content: [
        { type: 'tool_call', id: `call_${turn}`, name: 'read_file', arguments: JSON.stringify({ path }) },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool_result',
          toolCallId: `call_${turn}`,
          toolName: 'read_file',
          content: `// ${path}\n${'export function handler(input: string) { return JSON.parse(input); }\n'.repeat(6)}`,
        },
      ],
    },
  );
  const request = await context.prepareRequest(
    { system: prompt.parts, tools: prompt.tools, messages: history },
    { emit: bus },
  );
  if (turn % 10 === 0) {
    const summary = request.messages.map(summaryBodyOf).find(Boolean);
    console.log(
      `turn ${turn}: history ${history.length} messages, sent ${request.messages.length} (${context.lastCount} tokens)` +
        (summary ? `, summary says: "${summary.split('\n')[3]}"` : ''),
    );
  }
  history.push({ role: 'assistant', content: [{ type: 'text', text: `${path} has no eval.` }] });
}
console.log(
  `done: ${summaries} summariser call(s); the caller's history still holds all ${history.length} messages.`,
);
