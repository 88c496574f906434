import { describe, expect, it, vi } from 'vitest';

describe('FakeClock.run', () => {
  it("waits for tandem's import of zod, real I/O that no timer stands for", async () => {
    vi.resetModules();
    const { FakeClock } = await import('../../src/testing/fake-clock.js');
    const { planSchema } = await import('../../src/agents/planner/index.js');
    const clock = new FakeClock();
    const plan = { title: 'T', summary: 'S', steps: [{ id: 'a', description: 'Do a' }] };
    const validated = Promise.resolve(planSchema['~standard'].validate(plan));
    await expect(clock.run(validated)).resolves.toMatchObject({ value: { title: 'T' } });
  });

  it('still reports a promise no timer and no import can settle', async () => {
    const { FakeClock } = await import('../../src/testing/fake-clock.js');
    await expect(new FakeClock().run(new Promise(() => {}))).rejects.toThrow(/no timer is left/);
  });
});
