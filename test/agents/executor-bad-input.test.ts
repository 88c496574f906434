import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LENGTH_CONTINUE_PROMPT } from '../../src/agents/index.js';
import { ModelError, RunError } from '../../src/core/errors.js';
import { defineTool } from '../../src/tools/types.js';
import {
  add,
  allText,
  callAdd,
  lastToolResult,
  ofType,
  runCollect,
  setup,
} from '../support/executor-fixtures.js';
import { expectInvariants } from '../support/invariants.js';

const unknown = { toolCalls: [{ name: 'multiply_all_the_things', args: { a: 1 } }] };
const broken = { toolCalls: [{ name: 'add', arguments: '{"a": 1, "b":' }] };

describe('unknown tool names', () => {
  it('sends the error results back and stops after three consecutive invalid turns', async () => {
    const { model, executor } = setup([unknown, unknown, unknown]);
    const { error, events } = await runCollect(executor, 'q');
    expect(error).toBeInstanceOf(RunError);
    expect(error.kind).toBe('invalid_tool_calls');
    expect(error.message).toContain('multiply_all_the_things');
    expect(lastToolResult(model.requests[1]!)).toContain("Tool 'multiply_all_the_things' does not exist");
    expect(lastToolResult(model.requests[1]!)).toContain('Available tools: add');
    expect(events.at(-1)).toMatchObject({
      type: 'complete',
      status: 'failed',
      error: { kind: 'invalid_tool_calls' },
    });
    expectInvariants(events);
    model.assertConsumed();
  });

  it('resets the count after a valid turn', async () => {
    const { executor, model } = setup([unknown, unknown, callAdd(1, 2), unknown, unknown, { text: 'fine' }]);
    const { result } = await runCollect(executor, 'q');
    expect(result!.output).toBe('fine');
    model.assertConsumed();
  });

  it('honours maxInvalidToolTurns', async () => {
    const { executor } = setup([unknown], { limits: { maxInvalidToolTurns: 1 } });
    const { error } = await runCollect(executor, 'q');
    expect(error.kind).toBe('invalid_tool_calls');
  });
});

describe('invalid JSON arguments', () => {
  it('re-asks twice without appending anything, then appends the error results and goes on', async () => {
    const { model, executor } = setup([broken, broken, broken, { text: 'recovered' }]);
    const { result, events } = await runCollect(executor, 'q');
    expect(result!.output).toBe('recovered');
    const [r0, r1, r2, r3] = model.requests;
    expect(r1!.messages).toEqual(r0!.messages);
    expect(r2!.messages).toEqual(r0!.messages);
    expect(r3!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(lastToolResult(r3!)).toContain('Invalid JSON arguments');
    // Each re-asked turn still shows its call, answered with the error the model would get.
    expect(ofType(events, 'tool_call')).toHaveLength(3);
    expect(ofType(events, 'usage')).toHaveLength(4);
    expect(result!.iterations).toBe(2);
    expectInvariants(events);
  });

  it('reports every re-asked call: arguments that are JSON but not an object (4) never vanish', async () => {
    const { model, executor } = setup([
      { toolCalls: [{ name: 'add', arguments: '4' }] },
      {
        toolCalls: [
          { name: 'add', arguments: '4' },
          { name: 'add', args: { a: 1, b: 2 } },
        ],
      },
      { text: 'gave up' },
    ]);
    const { result, events } = await runCollect(executor, 'q');
    expect(result!.output).toBe('gave up');
    // Re-asked, not kept: the model never saw the bad turns.
    expect(model.requests[2]!.messages).toEqual(model.requests[0]!.messages);
    const calls = events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result');
    expect(calls.map((e) => [e.type, e.id])).toEqual([
      ['tool_call', 'call_1'],
      ['tool_result', 'call_1'],
      ['tool_call', 'call_2'],
      ['tool_result', 'call_2'],
      ['tool_call', 'call_3'],
      ['tool_result', 'call_3'],
    ]);
    const results = ofType(events, 'tool_result');
    expect(results[0]).toMatchObject({ name: 'add', isError: true });
    expect(results[0]!.output).toContain('Arguments must be a JSON object, got a number');
    expect(results[2]).toMatchObject({ isError: true, output: expect.stringContaining('Skipped') });
    expect(ofType(events, 'tool_call')[0]).toMatchObject({ args: '4' });
    expectInvariants(events);
  });

  it('runs the calls when a re-ask produces valid JSON', async () => {
    const { model, executor } = setup([broken, callAdd(2, 2), { text: 'four' }]);
    const { result } = await runCollect(executor, 'q');
    expect(result!.output).toBe('four');
    expect(lastToolResult(model.requests[2]!)).toBe('4');
  });
});

describe('tool failures become results the model can act on', () => {
  it('returns schema violations to the model', async () => {
    const { model, executor } = setup([
      { toolCalls: [{ name: 'add', args: { a: 'one', b: 2 } }] },
      { text: 'sorry' },
    ]);
    const { result, events } = await runCollect(executor, 'q');
    expect(result!.output).toBe('sorry');
    expect(lastToolResult(model.requests[1]!)).toContain("Invalid arguments for tool 'add'");
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: true });
  });

  it('returns a throwing tool’s error to the model', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'Throws',
      parameters: z.object({}),
      execute: () => {
        throw new Error('kaput');
      },
    });
    const { model, executor } = setup([{ toolCalls: [{ name: 'boom', args: {} }] }, { text: 'it broke' }], {
      tools: [boom],
    });
    const { result } = await runCollect(executor, 'q');
    expect(result!.output).toBe('it broke');
    expect(lastToolResult(model.requests[1]!)).toMatch(/^Error: kaput\n\n\[Tool error: unknown\] /);
  });

  it('times out a tool hanging past its timeout and goes on', async () => {
    const hang = defineTool({
      name: 'hang',
      description: 'Never returns',
      parameters: z.object({}),
      timeoutMs: 5_000,
      execute: (_args, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
    });
    const { model, executor, clock } = setup(
      [{ toolCalls: [{ name: 'hang', args: {} }] }, { text: 'moved on' }],
      {
        tools: [hang],
      },
    );
    const { result, events } = await runCollect(executor, 'q', {}, () => clock.advance(5_000));
    expect(result!.output).toBe('moved on');
    expect(lastToolResult(model.requests[1]!)).toContain('timed out after 5000 ms');
    expectInvariants(events);
  });
});

describe('empty model replies', () => {
  it('re-asks up to twice without consuming an iteration', async () => {
    const { model, executor } = setup([{ text: '' }, { text: '  ' }, { text: 'there you go' }], {
      limits: { maxIterations: 1 },
    });
    const { result } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ output: 'there you go', status: 'success', iterations: 1 });
    expect(model.requests[2]!.messages).toHaveLength(1);
  });

  it('ends with a model error (empty_response) after the re-asks', async () => {
    const { executor, model } = setup([{ text: '' }, { text: '', reasoning: 'hmm' }, { text: '' }]);
    const { error, events } = await runCollect(executor, 'q');
    expect(error).toBeInstanceOf(RunError);
    expect(error.kind).toBe('model');
    expect(error.cause).toBeInstanceOf(ModelError);
    expect(error.cause.kind).toBe('empty_response');
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed', error: { kind: 'model' } });
    model.assertConsumed();
  });

  it('ends with a model error when the reply was blocked by the content filter', async () => {
    const { executor } = setup([{ text: '', finishReason: 'content_filter' }]);
    const { error } = await runCollect(executor, 'q');
    expect(error.kind).toBe('model');
    expect(error.cause.kind).toBe('content_filter');
  });
});

describe('model failures', () => {
  it('ends with a typed error event when the stream fails mid-way', async () => {
    const failure = new ModelError('server', 'upstream reset', { status: 502 });
    // The text shown is kept and the model asked to continue (salvage); the continuation fails too.
    const { executor } = setup(
      [{ error: failure, afterParts: [{ type: 'text-delta', delta: 'Hel' }] }, { error: failure }],
      { resilience: { retry: false } },
    );
    const { error, events } = await runCollect(executor, 'q');
    expect(error).toBeInstanceOf(RunError);
    expect(error).toMatchObject({ kind: 'model', cause: failure });
    expect(ofType(events, 'token').map((e) => e.delta)).toEqual(['Hel']);
    expect(ofType(events, 'stage').map((e) => e.status)).toEqual(['running', 'failed']);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'failed', error: { kind: 'model' } });
    expectInvariants(events);
  });

  it('reports an unexpected non-model exception as internal', async () => {
    const { executor } = setup([{ text: 'never' }], {
      context: {
        prepareRequest: () => {
          throw new TypeError('bad hook');
        },
      },
    });
    const { error } = await runCollect(executor, 'q');
    expect(error).toMatchObject({ kind: 'internal', message: 'bad hook' });
  });
});

describe('length continuation', () => {
  it('asks the model to continue and joins the parts', async () => {
    const { model, executor } = setup([
      { text: 'Part one, ', finishReason: 'length' },
      { text: 'part two, ', finishReason: 'length' },
      { text: 'the end.' },
    ]);
    const { result } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ output: 'Part one, part two, the end.', status: 'success' });
    const last = model.requests[1]!.messages.at(-1)!;
    expect(last).toEqual({ role: 'user', content: LENGTH_CONTINUE_PROMPT });
    expect(model.requests[2]!.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('stops after two continuations with a partial result of the accumulated text', async () => {
    const { model, executor } = setup([
      { text: 'a ', finishReason: 'length' },
      { text: 'b ', finishReason: 'length' },
      { text: 'c ', finishReason: 'length' },
    ]);
    const { result, events } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ output: 'a b c ', status: 'partial', finishReason: 'length' });
    expect(result!.error).toMatchObject({ kind: 'length' });
    expect(model.calls).toBe(3);
    expect(allText(model.requests[2]!.messages).split(LENGTH_CONTINUE_PROMPT)).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'complete', status: 'partial' });
    model.assertConsumed();
  });

  it('honours maxLengthContinuations: 0', async () => {
    const { model, executor } = setup([{ text: 'cut', finishReason: 'length' }], {
      limits: { maxLengthContinuations: 0 },
    });
    const { result } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ output: 'cut', status: 'partial' });
    expect(model.calls).toBe(1);
  });

  it('ends with the accumulated text when the continuation is empty', async () => {
    const { executor } = setup([{ text: 'all of it', finishReason: 'length' }, { text: '' }]);
    const { result } = await runCollect(executor, 'q');
    expect(result).toMatchObject({ output: 'all of it', status: 'success' });
  });
});

describe('tools of other names', () => {
  it('repairs a misspelt tool name and runs it', async () => {
    const { executor } = setup([{ toolCalls: [{ name: 'Add', args: { a: 1, b: 2 } }] }, { text: 'ok' }], {
      tools: [add],
    });
    const { events } = await runCollect(executor, 'q');
    expect(ofType(events, 'tool_call')[0]).toMatchObject({ name: 'add', requestedName: 'Add' });
  });
});
