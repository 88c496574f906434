import { describe, expect, it } from 'vitest';
import { Executor } from '../../src/agents/index.js';
import { SystemPromptBuilder } from '../../src/context/system-prompt-builder.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { add } from '../support/executor-fixtures.js';

describe('Executor system prompt sources', () => {
  it('sends a SystemPromptBuilder prompt as system parts with a cache-stable prefix listing the tools', async () => {
    const runtime = testRuntime();
    const builder = new SystemPromptBuilder({
      os: 'linux',
      clock: runtime.clock,
      instructions: ['Be exact.'],
    });
    const model = new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const executor = new Executor({ model, tools: [add], instructions: builder, runtime });
    await executor.run('first').result;
    await runtime.clock.advance(60_000);
    await executor.run('second').result;
    const [a, b] = model.requests.map((r) => r.system as { text: string; cache?: boolean }[]);
    expect(a![0]).toMatchObject({ cache: true });
    expect(a![0]!.text).toContain('- add: Add two numbers');
    expect(a![0]!.text).toContain('Be exact.');
    expect(b![0]).toBe(a![0]);
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'first' }]);
  });

  it('sends system parts as given', async () => {
    const model = new ScriptedModel([{ text: 'ok' }]);
    const system = [{ text: 'stable', cache: true }, { text: 'dynamic' }];
    await new Executor({ model, instructions: system, runtime: testRuntime() }).run('hi').result;
    expect(model.requests[0]!.system).toEqual(system);
  });
});
