/**
 * OpenTelemetry GenAI spans from a run, offline: a scripted plan-and-execute
 * run traced with `otelTracing`, its spans exported to the console exporter
 * (pass `--quiet` to skip that) and collected in memory to print the tree.
 * In an application you would register your usual exporter (OTLP…) instead.
 *
 *   npx tsx examples/otel.ts
 */
import { context, type HrTime } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  ConsoleSpanExporter,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { defineTool, Orchestrator } from 'tandem-agents';
import { otelTracing } from 'tandem-agents/otel';
import { ScriptedModel } from 'tandem-agents/testing';
import { z } from 'zod';

// Spans started inside a tool or a model adapter's fetch nest under tandem's spans through the context.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const processors = [new SimpleSpanProcessor(exporter)];
if (!process.argv.includes('--quiet')) processors.push(new SimpleSpanProcessor(new ConsoleSpanExporter()));
const provider = new BasicTracerProvider({ spanProcessors: processors });
const tracing = otelTracing({ tracer: provider.getTracer('example'), attributes: { 'app.user': 'demo' } });

const readDoc = defineTool({
  name: 'read_doc',
  description: 'Read a short internal document by name.',
  parameters: z.object({ name: z.enum(['pricing', 'roadmap']) }),
  execute: ({ name }) => (name === 'pricing' ? 'Basic 10 EUR, Pro 25 EUR.' : 'Q3: SSO.'),
});
const usage = (input: number, output: number) => ({ inputTokens: input, outputTokens: output });
const step = (id: string, description: string, dependsOn: string[] = []) => ({ id, description, dependsOn });

const orchestrator = new Orchestrator({
  models: {
    planner: new ScriptedModel([
      { text: '{"needsPlan": true, "reasoning": "two documents, then a summary"}', usage: usage(120, 15) },
      {
        text: JSON.stringify({
          title: 'Brief',
          summary: 'Read pricing, then summarise.',
          steps: [
            step('pricing', 'Read the pricing document'),
            step('brief', 'Write the brief', ['pricing']),
          ],
        }),
        usage: usage(300, 60),
      },
    ]),
    executor: new ScriptedModel([
      { toolCalls: [{ name: 'read_doc', args: { name: 'pricing' } }], usage: usage(400, 20) },
      { toolCalls: [{ name: 'read_doc', args: { name: 'secret' } }], usage: usage(450, 20) },
      { text: 'Basic costs 10 EUR, Pro 25 EUR.', usage: usage(500, 12) },
      { text: 'Brief: two plans, 10 and 25 EUR a month.', usage: usage(350, 18) },
    ]),
    verifier: new ScriptedModel([{ text: 'PASS: complete.', usage: usage(200, 5) }]),
    finalizer: ({ steps }) => steps.at(-1)?.output ?? '',
  },
  tools: [readDoc],
  planning: { classify: 'llm' },
  runtime: { tracing },
  prices: { model: { input: 2.5, output: 10 } },
});

const result = await orchestrator.run('Write a short pricing brief.').result;

const spans = exporter.getFinishedSpans();
const msOf = (t: HrTime) => t[0] * 1000 + t[1] / 1e6;
const status = ['', ' ok', ' ERROR'];
function print(span: ReadableSpan, depth: number): void {
  const a = span.attributes;
  const tokens =
    a['gen_ai.usage.input_tokens'] === undefined
      ? ''
      : ` tokens=${a['gen_ai.usage.input_tokens']}/${a['gen_ai.usage.output_tokens']}`;
  const events = span.events.length ? ` events=[${span.events.map((e) => e.name).join(', ')}]` : '';
  const ms = (msOf(span.endTime) - msOf(span.startTime)).toFixed(1);
  console.log(`${'  '.repeat(depth)}${span.name} (${ms} ms)${status[span.status.code]}${tokens}${events}`);
  const id = span.spanContext().spanId;
  const children = spans.filter((s) => s.parentSpanContext?.spanId === id);
  children.sort((x, y) => msOf(x.startTime) - msOf(y.startTime) || spans.indexOf(x) - spans.indexOf(y));
  for (const child of children) print(child, depth + 1);
}
for (const root of spans.filter((s) => !s.parentSpanContext)) print(root, 0);
console.log(
  `\n${spans.length} spans; run status=${result.status}; cost $${result.usage.costUsd?.toFixed(4)}`,
);
await provider.shutdown();
