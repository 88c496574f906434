/**
 * Project instructions: the conventions a repository writes down for agents
 * (`AGENTS.md`, `.cursorrules`, …), read from the workspace and placed in the
 * system prompt. Opt-in: a workspace is the user's, but its files may not
 * be, so nothing is read unless asked.
 * @module
 */
import type { SystemPart } from '../model/types.js';

/** Files looked for, in order, when none are named. */
export const PROJECT_INSTRUCTION_FILES: readonly string[] = [
  'AGENTS.md',
  '.cursorrules',
  '.github/copilot-instructions.md',
];

/** Options of {@link loadProjectInstructions}. */
export interface ProjectInstructionsOptions {
  /** Files to read, relative to the workspace root. Default {@link PROJECT_INSTRUCTION_FILES}. */
  files?: readonly string[];
  /** Longest text kept (all files together); the rest is cut with a note. Default 20 000 characters. */
  maxChars?: number;
}

/** What {@link loadProjectInstructions} reads files through: a `Sandbox` fits. */
export interface InstructionSource {
  readFile(path: string): Promise<string>;
}

/**
 * The project's instruction files as one cached system prompt part, each
 * under a heading naming its file, or `undefined` when there are none. A file
 * that is missing or unreadable is skipped.
 */
export async function loadProjectInstructions(
  source: InstructionSource,
  options: ProjectInstructionsOptions = {},
): Promise<SystemPart | undefined> {
  const maxChars = options.maxChars ?? 20_000;
  const sections: string[] = [];
  let used = 0;
  for (const file of options.files ?? PROJECT_INSTRUCTION_FILES) {
    const text = await source.readFile(file).then(
      (content) => content.trim(),
      () => '',
    );
    if (!text) continue;
    const room = maxChars - used;
    if (room <= 0) break;
    const kept =
      text.length > room
        ? `${text.slice(0, room)}\n[… ${text.length - room} characters of ${file} cut]`
        : text;
    sections.push(`## Project instructions (${file})\n\n${kept}`);
    used += Math.min(text.length, room);
  }
  return sections.length > 0 ? { text: sections.join('\n\n'), cache: true } : undefined;
}
