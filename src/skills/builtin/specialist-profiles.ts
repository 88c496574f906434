/**
 * Seed 003's five specialist agents as data: what each is for, the queries
 * the router shows as its examples, its instructions, its tier and its row of
 * the handoff matrix. {@link defaultAgents} turns them into running agents.
 * @module
 */
import type { AgentProfile } from '../../agents/index.js';
import { SEED_HANDOFF_MATRIX } from '../../agents/index.js';

/** The names of seed 003's agents. */
export type SpecialistName = 'chat' | 'research' | 'code' | 'writing' | 'data';

/** The five, in the seed's order (the router lists them so). */
export const SPECIALIST_NAMES: readonly SpecialistName[] = ['chat', 'research', 'code', 'writing', 'data'];

/** A specialist without its tools: what {@link SPECIALIST_PROFILES} holds. */
export type SpecialistProfile = Required<
  Pick<AgentProfile, 'name' | 'description' | 'instructions' | 'examples' | 'tier' | 'handoffs'>
> &
  Pick<AgentProfile, 'maxIterations'>;

const HANDOFF_RULE =
  'When the task needs another specialist, hand it off with the handoff tool and put what you found in its context; do not attempt work another agent is built for.';

/**
 * The seed's agents (seed 003 "Agent Types", "Subagent Graph Structures"):
 * chat converses and delegates (5 turns, the seed's pro tier), research runs
 * the research pipeline, code writes and runs code in the sandbox, writing
 * drafts long-form text in four phases, data analyses files with code.
 */
export const SPECIALIST_PROFILES: Readonly<Record<SpecialistName, SpecialistProfile>> = Object.freeze({
  chat: {
    name: 'chat',
    description: 'General conversation, simple Q&A, greetings',
    examples: ['Hi! What can you help me with?', 'What is the difference between TCP and UDP?'],
    instructions: `You are a helpful, concise assistant for general conversation and quick questions. Answer directly when you can. ${HANDOFF_RULE} Research with sources goes to research, code to code, long-form writing to writing, data files to data.`,
    tier: 'pro',
    handoffs: SEED_HANDOFF_MATRIX.chat!,
  },
  research: {
    name: 'research',
    description: 'In-depth research, web search, reports with sources',
    examples: [
      'Research the current state of solid-state batteries, with sources',
      'Compare the top 3 vector databases for production use',
    ],
    instructions: `You research questions in depth. Use the research tool (web search, analysis, a cited report) for anything that needs current or sourced information, then answer with the report's findings and its sources; never invent a source. Without a research tool, say that you could not search and answer from what you know. ${HANDOFF_RULE}`,
    tier: 'pro',
    handoffs: SEED_HANDOFF_MATRIX.research!,
  },
  code: {
    name: 'code',
    description: 'Code execution, scripts, debugging',
    examples: [
      'Write a Python script that removes duplicate lines from a file and run it',
      'Why does this function throw a TypeError?',
    ],
    instructions: `You write, run and debug code. Write files and run them in the sandbox with your tools, read the output, fix errors and run again; report the result with the code that produced it. ${HANDOFF_RULE}`,
    tier: 'max',
    handoffs: SEED_HANDOFF_MATRIX.code!,
  },
  writing: {
    name: 'writing',
    description: 'Long-form content, articles, documentation, essays',
    examples: [
      'Write a blog post about remote work for engineering managers',
      'Draft the README for my command-line tool',
    ],
    instructions: `You write long-form content. Call the writing tool with the task, the tone and any supporting material from the context (it analyzes, outlines, writes and edits), then reply with its final text. When the text needs facts you do not have, hand off to research first. ${HANDOFF_RULE}`,
    tier: 'pro',
    handoffs: SEED_HANDOFF_MATRIX.writing!,
  },
  data: {
    name: 'data',
    description: 'Data analysis, CSV/JSON files, statistics, visualization',
    examples: [
      'What is the average price per region in sales.csv?',
      'Plot the monthly revenue in orders.json',
    ],
    instructions: `You analyse data files in the workspace. Use the data analysis tool (it plans, writes and runs a script, and summarises the numbers it computed), then answer with those numbers exactly and name the charts it made. ${HANDOFF_RULE}`,
    tier: 'pro',
    handoffs: SEED_HANDOFF_MATRIX.data!,
  },
});
