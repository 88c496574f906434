import { describe, expect, it, vi } from 'vitest';
import type { TandemEvent } from '../../src/core/events.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { type RunToolsContext, type ToolOutputFilter, ToolRunner } from '../../src/tools/runner.js';
import type { Tool } from '../../src/tools/types.js';
import { collectingBus, deferred, simpleTool, toolCall } from './helpers.js';

function setup(tools: Tool[], filterOutput?: ToolOutputFilter, maxOutputChars?: number) {
  const { bus, events } = collectingBus();
  const registry = new ToolRegistry(tools);
  const runner = new ToolRunner({ maxOutputChars });
  const controller = new AbortController();
  const ctx: RunToolsContext = { signal: controller.signal, emit: bus, runId: bus.runId, filterOutput };
  const run = async (...calls: Parameters<typeof toolCall>[]) =>
    runner.run(
      (
        await prepareToolCalls(
          registry,
          calls.map((args) => toolCall(...args)),
        )
      ).calls,
      ctx,
    );
  return { events, run, ctx, controller };
}

function results(events: TandemEvent[]) {
  return events.filter((e) => e.type === 'tool_result');
}

const redact: ToolOutputFilter = (output) => output.replace('EVIL', '[removed]');

describe('ToolRunner output filter', () => {
  it('shows the model the filtered output and flags the tool_result event', async () => {
    const { run, events } = setup([simpleTool('web', () => 'page EVIL text')], redact);
    const [outcome] = await run(['web', {}, 'c1']);
    expect(outcome).toMatchObject({
      output: 'page [removed] text',
      content: 'page [removed] text',
      filtered: true,
    });
    expect(results(events)).toMatchObject([{ id: 'c1', output: 'page [removed] text', filtered: true }]);
    expect(JSON.stringify(events)).not.toContain('EVIL');
  });

  it('filters the full output before truncating it, so truncation cannot split a match past the filter', async () => {
    // Truncation to 40 keeps the first 28 characters: it would cut EVIL to EV.
    const long = `${'a'.repeat(26)}EVIL${'b'.repeat(60)}`;
    const { run } = setup([simpleTool('web', () => long)], redact, 40);
    const [outcome] = await run(['web', {}]);
    expect(outcome!.output).toBe(`${'a'.repeat(26)}[removed]${'b'.repeat(60)}`);
    expect(outcome!.truncated).toBe(true);
    expect(outcome!.content.startsWith(`${'a'.repeat(26)}[r`)).toBe(true);
    expect(outcome!.content).not.toContain('EV');
  });

  it('passes the call and the run context to the filter, and may be async', async () => {
    const seen: string[] = [];
    const filter: ToolOutputFilter = async (output, call, ctx) => {
      seen.push(`${call.tool.name}:${call.call.id}:${ctx.runId}`);
      return output.toUpperCase();
    };
    const { run } = setup([simpleTool('web', () => ({ n: 1 }))], filter);
    const [outcome] = await run(['web', {}, 'c9']);
    expect(seen).toEqual(['web:c9:run_1']);
    expect(outcome!.content).toBe('{"N":1}');
  });

  it('does not flag an output the filter left as it was', async () => {
    const { run, events } = setup([simpleTool('web', () => 'clean')], redact);
    const [outcome] = await run(['web', {}]);
    expect(outcome).not.toHaveProperty('filtered');
    expect(results(events)[0]).not.toHaveProperty('filtered');
  });

  it('leaves errors, refusals and unknown tools to the runner, unfiltered', async () => {
    const filter = vi.fn(redact);
    const { run, ctx } = setup(
      [
        simpleTool('boom', () => {
          throw new Error('EVIL failure');
        }),
        simpleTool('gated', () => 'never'),
      ],
      filter,
    );
    ctx.gate = (call) => (call.tool.name === 'gated' ? { allow: false, result: 'denied EVIL' } : undefined);
    const outcomes = await run(['boom', {}], ['gated', {}], ['nope', {}]);
    expect(filter).not.toHaveBeenCalled();
    expect(outcomes.map((o) => o.isError)).toEqual([true, true, true]);
  });

  it('answers with an error, never the unfiltered output, when the filter throws or returns a non-string', async () => {
    const throwing: ToolOutputFilter = () => {
      throw new Error('scanner down');
    };
    const bad = (() => 42) as unknown as ToolOutputFilter;
    for (const filter of [throwing, bad]) {
      const { run, events } = setup([simpleTool('web', () => 'EVIL page')], filter);
      const [outcome] = await run(['web', {}]);
      expect(outcome!.isError).toBe(true);
      expect(outcome!.content).toMatch(/^Error: the tool's output filter failed: /);
      expect(JSON.stringify(events)).not.toContain('EVIL');
    }
  });

  it('reports an abort during filtering as an aborted call', async () => {
    const entered = deferred<void>();
    const filter: ToolOutputFilter = (_, __, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        entered.resolve();
      });
    const { run, controller } = setup([simpleTool('web', () => 'EVIL')], filter);
    const done = run(['web', {}]);
    await entered.promise;
    controller.abort();
    const [outcome] = await done;
    expect(outcome).toMatchObject({ isError: true, content: "Tool 'web' was aborted" });
  });

  it('without a filter, events and outcomes carry no filtered flag', async () => {
    const { run, events } = setup([simpleTool('web', () => 'EVIL')]);
    const [outcome] = await run(['web', {}]);
    expect(outcome).toEqual({
      toolCallId: outcome!.toolCallId,
      toolName: 'web',
      output: 'EVIL',
      content: 'EVIL',
      isError: false,
      truncated: false,
      durationMs: outcome!.durationMs,
    });
    expect(Object.keys(results(events)[0]!)).not.toContain('filtered');
  });
});
