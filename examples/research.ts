/**
 * The research pipeline, offline: a scripted web search and a scripted model
 * stand in for the real ones, so the run is the same every time.
 *
 *   npx tsx examples/research.ts
 *
 * Part 1 invokes the `research` skill directly, as a dedicated "research"
 * mode does — no agent turn, the pipeline's own model calls only. Part 2 runs
 * a chat agent that hands the question off to a research agent, which calls
 * the skill through `invoke_skill`.
 *
 * For real use, pass `createOpenAI(...)('model')` as the models and a search
 * API client as `search` (any `(query) => [{ title, url, snippet }]`).
 */
import {
  AgentRegistry,
  createSkillTools,
  EventBus,
  HandoffManager,
  type ResearchOutput,
  rememberResearch,
  researchSkills,
  type SearchFunction,
  SharedMemory,
  SkillRegistry,
} from 'tandem-agents';
import { ScriptedModel, testRuntime } from 'tandem-agents/testing';

const index: Record<string, { title: string; url: string; snippet: string }[]> = {
  'CRDT merge concurrent edits': [
    {
      title: 'CRDTs: an overview',
      url: 'https://crdt.tech/',
      snippet: 'Conflict-free replicated data types converge without coordination.',
    },
    {
      title: 'Yjs internals',
      url: 'https://docs.yjs.dev/internals',
      snippet: 'YATA orders concurrent insertions deterministically.',
    },
  ],
  'Automerge vs Yjs performance': [
    {
      title: 'Automerge 2.0',
      url: 'https://automerge.org/blog/automerge-2/',
      snippet: 'A Rust core made Automerge much faster.',
    },
    // The same page again, as search engines return it: deduplicated by URL.
    {
      title: 'CRDTs: an overview',
      url: 'https://www.crdt.tech/?utm_source=search',
      snippet: 'Duplicate hit.',
    },
  ],
};

const search: SearchFunction = async (query) => index[query] ?? [];

/** The pipeline's own model calls: query plan, analysis, synthesis, report. */
function pipelineModel(): ScriptedModel {
  return new ScriptedModel([
    { text: '["CRDT merge concurrent edits", "Automerge vs Yjs performance"]' },
    { text: '[1] defines convergence; [2] explains YATA ordering; [3] reports Automerge speed-ups.' },
    {
      text: 'CRDTs converge without a server [1]. Yjs orders inserts with YATA [2]; Automerge sped up with Rust [3].',
    },
    {
      text:
        '# How CRDTs merge concurrent edits\n\nReplicas converge without coordination [1]. ' +
        'Yjs orders concurrent inserts deterministically [2], and Automerge 2 moved to a Rust core [3].',
    },
  ]);
}

async function directMode(): Promise<ResearchOutput> {
  console.log('— Part 1: the research skill, invoked directly —\n');
  const runtime = testRuntime();
  const bus = new EventBus({ runId: 'run_direct', clock: runtime.clock });
  bus.on('stage', (e) => console.log(`[stage] ${e.name} ${e.status}${e.detail ? ` (${e.detail})` : ''}`));
  bus.on('source', (e) => console.log(`[source] ${e.title} <${e.url}>`));
  const skills = new SkillRegistry({ skills: researchSkills({ search }), model: pipelineModel(), runtime });
  const out = await skills.invokeDirect<ResearchOutput>(
    'research',
    { query: 'How do CRDTs merge concurrent edits?', depth: 'quick' },
    { emit: bus },
  );
  console.log(`\n${out.report}\n`);
  return out;
}

async function viaHandoff(): Promise<void> {
  console.log('— Part 2: chat hands off to a research agent, which invokes the skill —\n');
  const runtime = testRuntime();
  const skills = new SkillRegistry({ skills: researchSkills({ search }), model: pipelineModel(), runtime });
  const chatModel = new ScriptedModel([
    {
      toolCalls: [
        {
          name: 'handoff_to_research',
          args: {
            task: 'Explain how CRDTs merge concurrent edits, with sources',
            context: 'The user edits documents offline.',
          },
        },
      ],
    },
  ]);
  const researchModel = new ScriptedModel([
    {
      toolCalls: [
        {
          name: 'invoke_skill',
          args: {
            skill_id: 'research',
            params: { query: 'How do CRDTs merge concurrent edits?', depth: 'quick' },
          },
        },
      ],
    },
    (request) => {
      const result = request.messages.at(-1);
      const json = result?.role === 'tool' ? JSON.parse(result.content[0]!.content) : undefined;
      return { text: `Here is what I found.\n\n${json?.output?.report ?? '(no report)'}` };
    },
  ]);
  const agents = new AgentRegistry([
    {
      name: 'chat',
      description: 'General conversation',
      instructions: 'You are a helpful assistant.',
      model: chatModel,
      handoffs: ['research'],
    },
    {
      name: 'research',
      description: 'Web research with cited reports',
      instructions: 'You research questions with the research skill and answer with its report.',
      model: researchModel,
      skills: ['research'],
    },
  ]);
  const manager = new HandoffManager({
    agents,
    runtime,
    tools: (profile) => (profile.skills?.length ? createSkillTools(skills, { skills: profile.skills }) : []),
  });
  const bus = new EventBus({ runId: 'run_handoff', clock: runtime.clock });
  bus.on('handoff', (e) =>
    console.log(
      `[handoff] ${e.from} → ${e.to}: ${e.task} (${e.accepted ? 'accepted' : `refused: ${e.reason}`})`,
    ),
  );
  bus.on('skill_output', (e) => console.log(`[skill_output] ${e.skillId} (depth ${e.depth})`));
  const memory = new SharedMemory();
  const result = await manager.run('chat', 'How do CRDTs merge edits?', { emit: bus, memory });
  console.log(`\n[${result.agent}] ${result.output.split('\n')[0]}`);
  console.log(`\nHandoffs:\n${result.summary}`);
}

const out = await directMode();
const memory = new SharedMemory();
rememberResearch(memory, out);
console.log(`Shared memory for the next agent:\n${memory.render()}\n`);
await viaHandoff();
