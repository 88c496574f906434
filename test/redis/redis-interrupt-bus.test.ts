import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisInterruptBus } from '../../src/redis/redis-interrupt-bus.js';
import { ApprovalGate } from '../../src/safety/approvals/approval-gate.js';
import {
  buildInterrupt,
  type InterruptRequest,
  type InterruptSpec,
} from '../../src/safety/approvals/interrupts.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { prepareToolCalls } from '../../src/tools/prepare.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { ToolRunner } from '../../src/tools/runner.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { collectingBus, simpleTool, toolCall } from '../tools/helpers.js';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixtures/respond.ts', import.meta.url));

let server: RedisServer;
let client: Redis;
const buses: RedisInterruptBus[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  client = new Redis(server.url);
});
afterAll(async () => {
  for (const bus of buses) await bus.close();
  await client?.quit();
  await server?.stop();
});

function newBus(clock = new FakeClock()): RedisInterruptBus {
  const bus = new RedisInterruptBus({ client, clock });
  buses.push(bus);
  return bus;
}

let n = 0;
function request(spec: Partial<InterruptSpec> = {}, runId = 'run_r'): InterruptRequest {
  n++;
  return buildInterrupt({ kind: 'approval', title: 'Approve?', ...spec } as InterruptSpec, {
    id: `int_${n.toString(16).padStart(12, '0')}`,
    runId,
    createdAt: n,
  });
}

/** Answers from another process, as a UI backend would. */
async function respondFromChild(id: string, action: string, value?: string): Promise<string> {
  const args = ['--import', 'tsx', fixture, server.url, id, action, ...(value === undefined ? [] : [value])];
  const { stdout } = await run(process.execPath, args, {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  return stdout.trim();
}

describe('RedisInterruptBus', () => {
  it('stores the request at hitl:interrupt:<runId>:<id> with TTL timeout + 30 s', async () => {
    const bus = newBus();
    const r = request({ timeoutMs: 60_000 });
    await bus.publish(r);
    const stored = await client.get(`hitl:interrupt:run_r:${r.id}`);
    expect(JSON.parse(stored ?? 'null')).toEqual(r);
    const ttl = await client.pttl(`hitl:interrupt:run_r:${r.id}`);
    expect(ttl).toBeGreaterThan(85_000);
    expect(ttl).toBeLessThanOrEqual(90_000);
  });

  it('delivers an answer published before the waiter subscribed (B16)', async () => {
    const bus = newBus();
    const r = request();
    await bus.publish(r);
    expect(await newBus().respond(r.id, { action: 'approve' })).toBe(true);
    expect(await bus.waitFor(r.id, { timeoutMs: 10_000 })).toEqual({ action: 'approve' });
    expect(await client.exists(`hitl:interrupt:run_r:${r.id}`)).toBe(0);
  });

  it('delivers an answer published while waiting, through pub/sub', async () => {
    const bus = newBus();
    const r = request({ kind: 'decision', options: ['a', 'b'] });
    await bus.publish(r);
    const waiting = bus.waitFor(r.id, { timeoutMs: 10_000 });
    const responder = newBus();
    // Wait until the waiter is subscribed, so the answer really travels by pub/sub.
    while (Number((await client.pubsub('NUMSUB', `hitl:response:${r.id}`))[1]) === 0) await Promise.resolve();
    expect(await responder.respond(r.id, { action: 'select', value: 'b' })).toBe(true);
    expect(await waiting).toEqual({ action: 'select', value: 'b' });
  });

  it('times out on its clock, closes the interrupt and refuses later answers', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    const r = request();
    await bus.publish(r);
    const waiting = bus.waitFor(r.id, { timeoutMs: 5_000 });
    while (Number((await client.pubsub('NUMSUB', `hitl:response:${r.id}`))[1]) === 0) await Promise.resolve();
    await clock.advance(5_000);
    expect(await waiting).toBeUndefined();
    expect(await newBus().respond(r.id, { action: 'approve' })).toBe(false);
  });

  it('keeps the first answer and validates answers against the stored request', async () => {
    const bus = newBus();
    const r = request();
    await bus.publish(r);
    await expect(bus.respond(r.id, { action: 'select', value: 'x' })).rejects.toMatchObject({
      kind: 'invalid_response',
    });
    expect(await bus.respond(r.id, { action: 'deny' })).toBe(true);
    expect(await bus.respond(r.id, { action: 'approve' })).toBe(false);
    expect(await bus.waitFor(r.id, { timeoutMs: 1_000 })).toEqual({ action: 'deny' });
    expect(await bus.respond('int_unknown', { action: 'approve' })).toBe(false);
    await expect(bus.waitFor('int_unknown', { timeoutMs: 1 })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
  });

  it('rejects an aborted wait', async () => {
    const bus = newBus();
    const r = request();
    await bus.publish(r);
    const controller = new AbortController();
    const waiting = bus.waitFor(r.id, { timeoutMs: 10_000, signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
    expect(await bus.respond(r.id, { action: 'approve' })).toBe(false);
  });

  it('lists a run’s unanswered requests, oldest first', async () => {
    const bus = newBus();
    const a = request({}, 'run_list');
    const b = request({}, 'run_list');
    const c = request({}, 'run_list');
    for (const r of [c, a, b]) await bus.publish(r);
    await bus.respond(b.id, { action: 'approve' });
    expect((await bus.pending('run_list')).map((r) => r.id)).toEqual([a.id, c.id]);
  });
});

describe('cross-process approval through Redis', () => {
  it('a run waits in this process while another process approves', async () => {
    const clock = new FakeClock();
    const bus = newBus(clock);
    const ran: string[] = [];
    const deploy = simpleTool(
      'deploy',
      () => {
        ran.push('deploy');
        return 'deployed';
      },
      { risk: 'risky' },
    );
    const approvals = new ApprovalGate({ bus, runtime: { clock } });
    const { bus: events, events: seen } = collectingBus(clock);
    const answers: Promise<string>[] = [];
    events.on('interrupt', (e) => answers.push(respondFromChild(e.interrupt.id, 'approve')));
    const outcomes = await new ToolRunner({ clock }).run(
      (await prepareToolCalls(new ToolRegistry([deploy]), [toolCall('deploy', {}, 'call_1')])).calls,
      { signal: new AbortController().signal, emit: events, runId: 'run_x', gate: approvals.gate },
    );
    expect(await Promise.all(answers)).toEqual(['answered:true']);
    expect(outcomes[0]).toMatchObject({ toolCallId: 'call_1', isError: false, output: 'deployed' });
    expect(ran).toEqual(['deploy']);
    expect(seen.find((e) => e.type === 'interrupt_response')).toMatchObject({
      action: 'approve',
      timedOut: false,
    });
  });

  it('an answer from another process before the waiter subscribes is not lost', async () => {
    const bus = newBus();
    const r = request({ kind: 'input' }, 'run_y');
    await bus.publish(r);
    expect(await respondFromChild(r.id, 'input', 'from the other side')).toBe('answered:true');
    expect(await bus.waitFor(r.id, { timeoutMs: 10_000 })).toEqual({
      action: 'input',
      value: 'from the other side',
    });
  });
});
