/**
 * The input a handoff target receives (seed 003 §35 `build_query_with_context`):
 * the delegated task, the source's context, the artifacts moved into its
 * sandbox, then the shared memory within its budget.
 * @module
 */
import type { SharedMemory } from '../../context/shared-memory.js';

/** What {@link buildHandoffInput} combines. */
export interface HandoffInputParts {
  task: string;
  context?: string;
  /** The agent that handed off. */
  from: string;
  /** Paths moved from the source's sandbox into the target's. */
  artifacts?: readonly string[];
  /** What went wrong moving the artifacts; the target is told. */
  artifactError?: string;
  memory?: SharedMemory;
}

/**
 * `task` + `\n\nContext: …` + `\n\nArtifacts from "<from>" (now in your workspace): …`
 * (or why they could not be moved) + `\n\n---\n` + the rendered shared
 * memory; empty parts are left out.
 */
export function buildHandoffInput(parts: HandoffInputParts): string {
  let input = parts.task;
  const context = parts.context?.trim();
  if (context) input += `\n\nContext: ${context}`;
  if (parts.artifacts && parts.artifacts.length > 0) {
    input += `\n\nArtifacts from "${parts.from}" (now in your workspace): ${parts.artifacts.join(', ')}`;
  }
  if (parts.artifactError) {
    input += `\n\nNot all artifacts of "${parts.from}" reached your workspace: ${parts.artifactError}`;
  }
  const shared = parts.memory?.render();
  if (shared) input += `\n\n---\n${shared}`;
  return input;
}
