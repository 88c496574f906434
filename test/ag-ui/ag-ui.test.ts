/**
 * The AG-UI endpoint against the real counterpart: `@ag-ui/client`'s
 * `HttpAgent` runs against the handler on a loopback server, and every
 * event it receives validates against `@ag-ui/core`'s schemas.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgUiAgent, createAgUiHandler, toNodeListener } from '../../src/ag-ui/index.js';
import { defineTool, Executor, InMemorySessionStore, Orchestrator } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

let server: Server;
let base = '';
let route: (request: Request) => Promise<Response> = async () => new Response(null, { status: 404 });

beforeAll(async () => {
  server = createServer(toNodeListener((request) => route(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs the agent once and returns the events, each checked against AG-UI's schemas. */
async function runOnce(
  agent: HttpAgent,
  parameters: Parameters<HttpAgent['runAgent']>[0] = {},
): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, {
    onEvent: ({ event }) => {
      EventSchemas.parse(event);
      events.push(event);
    },
  });
  return events;
}

const types = (events: readonly { type: string }[]) => events.map((e) => e.type);

describe('AG-UI endpoint with HttpAgent', () => {
  it('streams text, reasoning, tool calls and results; the markup in the output stays data', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look up an order',
      parameters: z.object({ order: z.string() }),
      execute: ({ order }) => `<script>alert(1)</script>\n\ndata: {"order":"${order}"}`,
    });
    const model = new ScriptedModel([
      {
        text: 'Checking.',
        reasoning: 'Need the order.',
        toolCalls: [{ id: 'c1', name: 'lookup', args: { order: '7' } }],
      },
      { text: 'Order 7 shipped.' },
    ]);
    const handler = createAgUiHandler({ agent: new Executor({ model, tools: [lookup] }) });
    route = handler.handle;
    const agent = new HttpAgent({ url: `${base}/agui`, threadId: 't1' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'Where is order 7?' });
    const events = await runOnce(agent);
    expect(types(events)).toEqual(
      expect.arrayContaining([
        'RUN_STARTED',
        'REASONING_START',
        'REASONING_MESSAGE_CONTENT',
        'REASONING_END',
      ]),
    );
    const kinds = types(events).filter((t) => !t.startsWith('REASONING') && t !== 'TEXT_MESSAGE_CONTENT');
    expect(kinds).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const result = events.find((e) => e.type === 'TOOL_CALL_RESULT') as unknown as { content: string };
    expect(result.content).toBe('<script>alert(1)</script>\n\ndata: {"order":"7"}');
    const text = agent.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
    expect(text).toContain('Order 7 shipped.');
  });

  it('emits the plan as STATE_SNAPSHOT / STATE_DELTA and steps as STEP_STARTED / STEP_FINISHED', async () => {
    const { AgUiConverter } = await import('../../src/ag-ui/index.js');
    const converter = new AgUiConverter({ threadId: 't' });
    const at = 0;
    const steps = [{ id: 's1', description: 'Find', dependsOn: [], status: 'pending' as const }];
    const out = [
      ...converter.push({ type: 'plan_overview', runId: 'r', seq: 1, at, title: 'P', summary: 'S', steps }),
      ...converter.push({
        type: 'plan_step_started',
        runId: 'r',
        seq: 2,
        at,
        step: steps[0]!,
        attempt: 1,
        mode: 'normal',
      }),
      ...converter.push({
        type: 'todo_update',
        runId: 'r',
        seq: 3,
        at,
        content: '- [x] Find',
        checked: 1,
        total: 1,
      }),
      ...converter.push({
        type: 'plan_step_completed',
        runId: 'r',
        seq: 4,
        at,
        stepId: 's1',
        output: 'ok',
        completed: 1,
        total: 1,
      }),
    ];
    for (const event of out) EventSchemas.parse(event);
    expect(types(out)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT',
      'STEP_STARTED',
      'STATE_DELTA',
      'STATE_DELTA',
      'STEP_FINISHED',
      'STATE_DELTA',
    ]);
    expect(out[3]).toEqual({
      type: 'STATE_DELTA',
      delta: [{ op: 'replace', path: '/plan/steps/0/status', value: 'running' }],
    });
    expect(out[4]).toMatchObject({ delta: [{ op: 'add', path: '/checklist' }] });
  });

  it('an approval round trip: RUN_FINISHED with an interrupt outcome, answered through resume', async () => {
    const refund = defineTool({
      name: 'refund',
      description: 'Refund an order',
      parameters: z.object({ order: z.string() }),
      needsApproval: true,
      execute: ({ order }) => `refunded ${order}`,
    });
    const model = new ScriptedModel([
      { text: '', toolCalls: [{ id: 'r1', name: 'refund', args: { order: '42' } }] },
      { text: 'Refunded order 42.' },
    ]);
    const sessions = new InMemorySessionStore();
    route = createAgUiHandler({ agent: new Executor({ model, tools: [refund] }), sessions }).handle;
    const agent = new HttpAgent({ url: `${base}/agui`, threadId: 'approve-1' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'Refund order 42' });
    const first = await runOnce(agent);
    const finished = first.at(-1) as unknown as {
      outcome: { type: string; interrupts: { id: string; toolCallId: string }[] };
    };
    expect(finished.outcome.type).toBe('interrupt');
    expect(finished.outcome.interrupts[0]).toMatchObject({ toolCallId: 'r1', reason: 'tool_approval' });
    expect(types(first)).not.toContain('TOOL_CALL_RESULT');

    const interruptId = finished.outcome.interrupts[0]!.id;
    const unknown = { interruptId: 'int_unknown', status: 'resolved', payload: { approved: true } };
    const badAnswer = await fetch(`${base}/agui`, {
      method: 'POST',
      body: JSON.stringify({
        threadId: 'approve-1',
        runId: 'bad',
        messages: agent.messages,
        resume: [unknown],
      }),
    });
    expect(badAnswer.status).toBe(400);
    const second = await runOnce(agent, {
      resume: [{ interruptId, status: 'resolved', payload: { approved: true } }],
    });
    const result = second.find((e) => e.type === 'TOOL_CALL_RESULT') as unknown as {
      toolCallId: string;
      content: string;
    };
    expect(result).toMatchObject({ toolCallId: 'r1', content: 'refunded 42' });
    expect(types(second)).not.toContain('TOOL_CALL_START');
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('a frontend tool round trip: the call ends the run pending, the client answers in the next request', async () => {
    const model = new ScriptedModel([
      { text: '', toolCalls: [{ id: 'f1', name: 'set_theme', args: { color: 'blue' } }] },
      { text: 'The theme is blue now.' },
    ]);
    route = createAgUiHandler({
      agent: ({ tools }) => new Executor({ model, tools, safety: { pauseOnInterrupt: true } }),
    }).handle;
    const agent = new HttpAgent({ url: `${base}/agui`, threadId: 'front-1' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'Make it blue' });
    const tools = [
      {
        name: 'set_theme',
        description: 'Set the page theme',
        parameters: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      },
    ];
    const first = await runOnce(agent, { tools });
    expect(first.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'success', pendingToolCallIds: ['f1'] },
    });
    expect(first.find((e) => e.type === 'TOOL_CALL_ARGS')).toMatchObject({ delta: '{"color":"blue"}' });
    expect(types(first)).not.toContain('TOOL_CALL_RESULT');

    agent.addMessage({ id: 'tool-1', role: 'tool', toolCallId: 'f1', content: 'theme set to blue' });
    const second = await runOnce(agent, { tools });
    expect(types(second)).not.toContain('TOOL_CALL_START');
    expect(types(second)).not.toContain('TOOL_CALL_RESULT');
    expect(agent.messages.filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    const toolResult = model.requests[1]!.messages.at(-1);
    expect(JSON.stringify(toolResult)).toContain('theme set to blue');
  });

  it('a client that reconnects mid-run with Last-Event-ID gets the rest, without duplicates', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const wait = defineTool({
      name: 'wait',
      description: 'Waits',
      parameters: z.object({}),
      execute: async () => {
        await gate;
        return 'waited';
      },
    });
    const model = new ScriptedModel([
      { text: 'Starting.', toolCalls: [{ id: 'w1', name: 'wait', args: {} }] },
      { text: 'All done.' },
    ]);
    const handler = createAgUiHandler({ agent: new Executor({ model, tools: [wait] }) });
    route = handler.handle;
    const body = { threadId: 'rc', runId: 'run-rc', messages: [{ id: 'u', role: 'user', content: 'go' }] };
    const response = await fetch(`${base}/agui`, { method: 'POST', body: JSON.stringify(body) });
    const { frames, reader } = await readUntil(response, 'TOOL_CALL_END');
    await reader.cancel();
    expect(handler.isActive('run-rc')).toBe(true);

    const lastId = frames.at(-1)!.id;
    const again = await fetch(`${base}/agui?runId=run-rc`, { headers: { 'last-event-id': String(lastId) } });
    release();
    const rest = (await readUntil(again, 'RUN_FINISHED')).frames;
    const all = [...frames, ...rest];
    expect(all.map((f) => f.id)).toEqual(all.map((_, i) => i + 1));
    const whole = await fetch(`${base}/agui?runId=run-rc`, { headers: { 'last-event-id': '0' } });
    expect(all.map((f) => f.event)).toEqual(
      (await readUntil(whole, 'RUN_FINISHED')).frames.map((f) => f.event),
    );
    for (const f of all) EventSchemas.parse(f.event);
    expect((await fetch(`${base}/agui?runId=run-rc`)).status).toBe(204);
  });

  it('keeps the thread in a session: the next request sends only the new message', async () => {
    const model = new ScriptedModel([{ text: 'Hi Ada.' }, { text: 'You are Ada.' }]);
    const sessions = new InMemorySessionStore();
    route = createAgUiHandler({ agent: new Executor({ model }), sessions }).handle;
    const post = (runId: string, content: string) =>
      fetch(`${base}/agui`, {
        method: 'POST',
        body: JSON.stringify({ threadId: 'sess', runId, messages: [{ id: runId, role: 'user', content }] }),
      }).then((r) => r.text());
    await post('r1', 'I am Ada');
    await post('r2', 'Who am I?');
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('I am Ada');
    expect((await sessions.session('sess').load()).items).toHaveLength(4);
  });

  it('without sessions, the client messages are the history: text, tool calls and results', async () => {
    const model = new ScriptedModel([{ text: 'It was order 7.' }]);
    route = createAgUiHandler({ agent: new Executor({ model }) }).handle;
    const messages = [
      { id: '1', role: 'user', content: 'Look up order 7' },
      {
        id: '2',
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [{ id: 'c9', type: 'function', function: { name: 'lookup', arguments: '{"order":"7"}' } }],
      },
      { id: '3', role: 'tool', toolCallId: 'c9', content: 'shipped' },
      { id: '4', role: 'user', content: 'Which order was it?' },
    ];
    const response = await fetch(`${base}/agui`, {
      method: 'POST',
      body: JSON.stringify({ threadId: 'h', runId: 'rh', messages }),
    });
    await response.text();
    const sent = model.requests[0]!.messages;
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'Which order was it?' });
    expect(sent).toContainEqual({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'c9', toolName: 'lookup', content: 'shipped' }],
    });
  });

  it('a cancelled interrupt rejects the call; the model reads the rejection', async () => {
    const wipe = defineTool({
      name: 'wipe',
      description: 'Wipe the disk',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'wiped',
    });
    const model = new ScriptedModel([
      { text: '', toolCalls: [{ id: 'w', name: 'wipe', args: {} }] },
      { text: 'Not wiped.' },
    ]);
    route = createAgUiHandler({ agent: new Executor({ model, tools: [wipe] }) }).handle;
    const agent = new HttpAgent({ url: `${base}/agui`, threadId: 'reject-1' });
    agent.addMessage({ id: 'u1', role: 'user', content: 'Wipe it' });
    const first = await runOnce(agent);
    const { outcome } = first.at(-1) as unknown as { outcome: { interrupts: { id: string }[] } };
    const second = await runOnce(agent, {
      resume: [
        {
          interruptId: outcome.interrupts[0]!.id,
          status: 'resolved',
          payload: { approved: false, reason: 'never' },
        },
      ],
    });
    const result = second.find((e) => e.type === 'TOOL_CALL_RESULT') as unknown as { content: string };
    expect(result.content).toContain('never');
    expect(result.content).not.toContain('wiped');
  });

  it('a failed run ends with RUN_ERROR', async () => {
    route = createAgUiHandler({ agent: new Executor({ model: new ScriptedModel([]) }) }).handle;
    const body = { threadId: 'e', runId: 're', messages: [{ id: 'u', role: 'user', content: 'hi' }] };
    const response = await fetch(`${base}/agui`, { method: 'POST', body: JSON.stringify(body) });
    const { frames } = await readUntil(response, 'RUN_ERROR');
    for (const f of frames) EventSchemas.parse(f.event);
    expect(frames.map((f) => f.event.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
  });

  it('takes an Orchestrator as well as an Executor (a compile-time fit)', () => {
    const model = new ScriptedModel([]);
    const orchestrator = new Orchestrator({ models: { planner: model, executor: model } });
    const agent: AgUiAgent = orchestrator;
    expect(createAgUiHandler({ agent }).isActive('none')).toBe(false);
  });

  it('answers 400 to a body that is not a RunAgentInput and 409 to an answer with nothing paused', async () => {
    route = createAgUiHandler({ agent: new Executor({ model: new ScriptedModel([]) }) }).handle;
    const bad = await fetch(`${base}/agui`, { method: 'POST', body: '{"messages":3}' });
    expect(bad.status).toBe(400);
    const body = {
      threadId: 'none',
      runId: 'r',
      messages: [{ id: 't', role: 'tool', toolCallId: 'x', content: 'y' }],
    };
    const nothing = await fetch(`${base}/agui`, { method: 'POST', body: JSON.stringify(body) });
    expect(nothing.status).toBe(409);
    expect(await nothing.json()).toMatchObject({ error: 'nothing_to_resume' });
  });
});

interface Frame {
  id: number;
  event: { type: string };
}

/** Reads SSE frames until one of `type`; returns them and the reader (still open). */
async function readUntil(response: Response, type: string) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = '';
  while (!frames.some((f) => f.event.type === type)) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split('\n\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) {
      const id = Number(/^id: (\d+)$/m.exec(part)?.[1]);
      const data = /^data: (.*)$/m.exec(part)?.[1];
      if (data) frames.push({ id, event: JSON.parse(data) });
    }
  }
  return { frames, reader };
}
