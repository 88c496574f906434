/**
 * Seed 003's five specialist agents, ready to use, offline: scripted models
 * and a scripted web search stand in for the real ones.
 *
 *   npx tsx examples/specialist-agents.ts
 *
 * Part 1: the router (shown each agent's example queries) sends a research
 * question to the research agent, which runs the research pipeline on the
 * search. Part 2: the chat agent hands a writing task to the writing agent,
 * which analyzes, outlines, writes and finalizes; its outline and text land
 * in the run's shared memory.
 *
 * For real use: `models: { max, pro, flash }` from a provider,
 * `search: searxng({ url }).search` from `tandem-agents/search`, and
 * `sandbox` plus `tools: { code: createSandboxTools(sandbox) }` from
 * `tandem-agents/sandbox`.
 */
import { type ModelRequest, Orchestrator, type SearchFunction } from 'tandem-agents';
import { defaultAgents, SPECIALIST_PROFILES } from 'tandem-agents/skills';
import { ScriptedModel, type ScriptStep, testRuntime } from 'tandem-agents/testing';

const search: SearchFunction = async () => [
  {
    title: 'CRDTs: an overview',
    url: 'https://crdt.tech/',
    snippet: 'Replicas converge without coordination.',
  },
];

const system = (r: ModelRequest) =>
  typeof r.system === 'string' ? r.system : (r.system ?? []).map((p) => p.text).join('');
const isAgent = (r: ModelRequest, name: keyof typeof SPECIALIST_PROFILES) =>
  system(r).startsWith(SPECIALIST_PROFILES[name].instructions.slice(0, 40));
const toolResult = (r: ModelRequest) =>
  r.messages.filter((m) => m.role === 'tool').at(-1)?.content[0]?.content;

/** The agents' model: each agent calls its tool once, then answers from the result. */
const agents = new ScriptedModel(
  [
    (request): ScriptStep => {
      const result = toolResult(request);
      if (isAgent(request, 'chat')) {
        return { toolCalls: [{ name: 'handoff_to_writing', args: { task: 'A short post on CRDTs' } }] };
      }
      if (isAgent(request, 'research')) {
        if (!result)
          return {
            toolCalls: [{ name: 'research', args: { query: 'How do CRDTs merge?', depth: 'quick' } }],
          };
        return { text: JSON.parse(result).report };
      }
      if (!result)
        return {
          toolCalls: [{ name: 'writing', args: { task: 'A short post on CRDTs', tone: 'friendly' } }],
        };
      return { text: JSON.parse(result).content };
    },
  ],
  { id: 'scripted:agents', loop: true },
);

/** The routing model (flash tier): picks research for research questions. */
const router = new ScriptedModel(
  [
    (request): ScriptStep => {
      const query = JSON.stringify(request.messages.at(-1)?.content);
      const agent = /research/i.test(query) ? 'research' : 'chat';
      return { text: JSON.stringify({ agent, confidence: 0.9, reason: `like the ${agent} examples` }) };
    },
  ],
  { id: 'scripted:router', loop: true },
);

/** The skills' own calls: the research pipeline, then the writing phases. */
const skillModel = new ScriptedModel([
  { text: '["How do CRDTs merge?"]' },
  { text: '[1] says replicas converge.' },
  { text: 'Replicas converge without coordination [1].' },
  { text: '# How CRDTs merge\n\nReplicas converge without coordination [1].' },
  { text: 'A friendly post for developers: what CRDTs are, why they converge.' },
  { text: '1. What a CRDT is\n2. Why replicas converge' },
  { text: 'CRDTs let replicas edit offline and still converge.' },
  { text: 'CRDTs let every replica edit offline, and they still converge.' },
]);

const runtime = testRuntime();
const team = defaultAgents({
  models: { pro: agents, max: agents, flash: router },
  search,
  skillModel,
  runtime,
});

console.log('— Part 1: routed to the research agent —\n');
const orchestrator = new Orchestrator({ models: { planner: agents, executor: agents }, runtime, ...team });
const run = orchestrator.run('Research how CRDTs merge concurrent edits, with sources');
run.on('routing', (e) => console.log(`[routing] ${e.agent} (${e.reason})`));
run.on('source', (e) => console.log(`[source] ${e.title} <${e.url}>`));
const researched = await run.result;
console.log(`[${researched.agent}] ${researched.output.split('\n')[0]}\n`);

console.log('— Part 2: chat hands off to the writing agent —\n');
const written = await team.handoffs.run('chat', 'Write a short post about CRDTs for our blog');
console.log(`[handoffs]\n${written.summary}`);
console.log(`[${written.agent}] ${written.output}\n`);
console.log(written.memory.render());
