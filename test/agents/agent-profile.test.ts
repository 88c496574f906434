import { describe, expect, it } from 'vitest';
import {
  type AgentProfile,
  AgentRegistry,
  HandoffManager,
  SEED_HANDOFF_MATRIX,
} from '../../src/agents/handoff/index.js';
import { ConfigError } from '../../src/core/errors.js';
import { createModelTiers } from '../../src/model/resilience/tiers.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

const agent = (name: string, handoffs: string[] = [], extra: Partial<AgentProfile> = {}): AgentProfile => ({
  name,
  description: `${name} agent`,
  instructions: `You are ${name}.`,
  handoffs,
  ...extra,
});

describe('AgentRegistry', () => {
  it('registers, lists and describes agents in order', () => {
    const agents = new AgentRegistry([agent('chat', ['research']), agent('research')]);
    expect(agents.names()).toEqual(['chat', 'research']);
    expect(agents.get('research')?.instructions).toBe('You are research.');
    expect(agents.has('code')).toBe(false);
    expect(agents.descriptors()).toEqual([
      { name: 'chat', description: 'chat agent' },
      { name: 'research', description: 'research agent' },
    ]);
    expect(agents.targetsOf('chat')).toEqual(['research']);
    expect(agents.targetsOf('nobody')).toEqual([]);
  });

  it('accepts the seed matrix, whose agents name each other (code ↔ data)', () => {
    const agents = new AgentRegistry(
      Object.entries(SEED_HANDOFF_MATRIX).map(([name, targets]) => agent(name, [...targets])),
    );
    expect(agents.targetsOf('data')).toEqual(['code']);
  });

  it('rejects unknown handoff targets, listing them and the registered agents', () => {
    expect(() => new AgentRegistry([agent('chat', ['research', 'code'])])).toThrow(
      /Unknown handoff target\(s\): "chat" → "research", "chat" → "code"\. Registered agents: chat/,
    );
    const incremental = new AgentRegistry().register(agent('chat', ['code']));
    expect(() => incremental.validate()).toThrow(ConfigError);
    incremental.register(agent('code'));
    expect(() => incremental.validate()).not.toThrow();
  });

  it('rejects duplicate names, self-handoffs and names that cannot become tool names', () => {
    expect(() => new AgentRegistry([agent('chat'), agent('chat')])).toThrow(/already registered/);
    expect(() => new AgentRegistry([agent('chat', ['chat'])])).toThrow(/cannot hand off to itself/);
    expect(() => new AgentRegistry([agent('web research')])).toThrow(ConfigError);
    expect(() => new AgentRegistry([agent('x'.repeat(54))])).toThrow(ConfigError);
  });

  it('require() names the registered agents when one is missing', () => {
    expect(() => new AgentRegistry([agent('chat')]).require('code')).toThrow(
      'Unknown agent "code". Registered agents: chat',
    );
  });
});

describe('HandoffManager: models of agents', () => {
  it('refuses an agent without any model at construction', () => {
    expect(() => new HandoffManager({ agents: new AgentRegistry([agent('chat')]) })).toThrow(
      /agent "chat" has no model/,
    );
  });

  it('uses the agent’s model, then its tier, then the default model', async () => {
    const own = new ScriptedModel([{ text: 'own' }]);
    const flash = new ScriptedModel([{ text: 'flash' }]);
    const fallback = new ScriptedModel([{ text: 'default' }]);
    const manager = new HandoffManager({
      agents: new AgentRegistry([
        agent('a', [], { model: own }),
        agent('b', [], { tier: 'flash' }),
        agent('c'),
      ]),
      models: createModelTiers({ flash }),
      model: fallback,
      runtime: testRuntime(),
    });
    expect((await manager.run('a', 'q')).output).toBe('own');
    expect((await manager.run('b', 'q')).output).toBe('flash');
    expect((await manager.run('c', 'q')).output).toBe('default');
  });

  it('rejects a negative maxHandoffs and an unknown start agent', async () => {
    const model = new ScriptedModel([]);
    const agents = new AgentRegistry([agent('chat')]);
    expect(() => new HandoffManager({ agents, model, maxHandoffs: -1 })).toThrow(ConfigError);
    await expect(new HandoffManager({ agents, model }).run('nobody', 'q')).rejects.toThrow(
      /Unknown agent "nobody"/,
    );
    expect(model.calls).toBe(0);
  });
});
