/** Shared set-up of the otel tests: an SDK tracer over an in-memory exporter, and span-tree readers. */
import type { HrTime } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** A tracer whose ended spans land in memory. */
export function memoryTracer() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
}

/** An `HrTime` back in milliseconds since the epoch. */
export const ms = (time: HrTime): number => time[0] * 1000 + time[1] / 1e6;

/** The one ended span named `name` (fails on none or several). */
export function span(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one span "${name}", found ${found.length}`);
  return found[0]!;
}

/** The parent of `child` among `spans`, if it was recorded. */
export function parentOf(spans: readonly ReadableSpan[], child: ReadableSpan): ReadableSpan | undefined {
  const id = child.parentSpanContext?.spanId;
  return spans.find((s) => s.spanContext().spanId === id);
}

/** The span tree as indented names, children in start order (ties in end order). */
export function tree(spans: readonly ReadableSpan[]): string[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const order = (list: ReadableSpan[]) =>
    list.sort((a, b) => ms(a.startTime) - ms(b.startTime) || spans.indexOf(a) - spans.indexOf(b));
  const lines: string[] = [];
  const walk = (node: ReadableSpan, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${node.name}`);
    const id = node.spanContext().spanId;
    for (const child of order(spans.filter((s) => s.parentSpanContext?.spanId === id)))
      walk(child, depth + 1);
  };
  for (const root of order(spans.filter((s) => !ids.has(s.parentSpanContext?.spanId ?? '')))) walk(root, 0);
  return lines;
}
