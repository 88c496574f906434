/**
 * Redis commands per step, counted by the server this file has to itself:
 * what the queue adapter adds to BullMQ's own must not grow back.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { collect, decideComplex, planJson, setup } from '../orchestrator/helpers.js';
import { useQueueFixture } from './helpers.js';

const fixture = useQueueFixture();

/** Calls per command since the last reset, from `INFO commandstats`. */
async function commandCalls(redis: Redis): Promise<Record<string, number>> {
  const info = await redis.info('commandstats');
  const calls: Record<string, number> = {};
  for (const [, name, count] of info.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm))
    calls[name!] = Number(count);
  return calls;
}

describe('queue: Redis round trips per step', () => {
  it('subscribes once per run and sends each one-turn step back in one packet', async () => {
    const queueName = fixture.queueName();
    const steps = [{ id: 's1' }, { id: 's2', dependsOn: ['s1'] }, { id: 's3', dependsOn: ['s2'] }];
    const remote = setup({ executor: steps.map((s) => ({ text: `done ${s.id}` })) });
    await fixture.worker({ queueName, orchestrator: remote.orchestrator });
    const { orchestrator } = setup(
      {
        planner: [decideComplex, { text: planJson(steps) }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { stepRunner: fixture.runner({ queueName }) },
    );
    const redis = new Redis(fixture.url());
    fixture.onClose(async () => void redis.disconnect());
    await redis.config('RESETSTAT');

    const { result, events } = await collect(orchestrator, 'Three steps in a row');
    const calls = await commandCalls(redis);

    expect(result?.steps.map((s) => s.output)).toEqual(['done s1', 'done s2', 'done s3']);
    expect(events.filter((e) => e.type === 'token').length).toBeGreaterThanOrEqual(3);
    expect(calls.subscribe).toBe(1);
    expect(calls.unsubscribe).toBeUndefined();
    expect(calls.publish).toBe(3);
  });
});
