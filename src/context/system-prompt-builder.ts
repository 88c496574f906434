/**
 * Builds the system prompt as a stable prefix (instructions and tool
 * guidance: byte-identical across turns, so providers can cache it) and a
 * dynamic suffix (environment, workspace, notices) (seeds 001, 002; §49–50, §84).
 * @module
 */
import { type Clock, systemClock } from '../core/seams.js';
import type { SystemPart, ToolSpec } from '../model/types.js';
import { fnv1a } from './prefix-hash.js';
import { DEFAULT_PROMPT_SECTIONS, type PromptSections } from './prompt-sections.js';
import type { WorkspaceTree } from './workspace-tree.js';

/** Options of {@link SystemPromptBuilder}. */
export interface SystemPromptBuilderOptions {
  /** Replacements for the default section texts. */
  sections?: Partial<PromptSections>;
  /** More stable instructions, appended to the prefix after the default sections. */
  instructions?: string[];
  /** Operating system named in the environment section (the core cannot look it up). */
  os?: string;
  /** Workspace folders named in the workspace section. */
  workspaceFolders?: string[];
  /** Source of the workspace structure; omitted → no structure block. */
  workspace?: WorkspaceTree;
  /** Source of the timestamp. */
  clock?: Clock;
}

/** What changes per call. */
export interface SystemPromptInput {
  /** Tools the request offers; listed sorted by name in the prefix. */
  tools?: readonly ToolSpec[];
  /** Tools that stay in the request but must not be called now (soft-disabled by one notice). */
  unavailableTools?: Iterable<string>;
  activeFile?: string;
  additionalContext?: string;
  /** Further notes for the suffix, e.g. a compressor's `systemNote`. */
  notes?: readonly string[];
}

/** A built system prompt. */
export interface BuiltSystemPrompt {
  /** `[prefix (cache: true), suffix]`: set as `ModelRequest.system`. */
  parts: SystemPart[];
  prefix: string;
  suffix: string;
  /** FNV-1a of the prefix. */
  prefixHash: string;
  /** True when the prefix differs from the previous build's. */
  prefixChanged: boolean;
  /** The tools sorted by name (same objects): set as `ModelRequest.tools` for a stable schema order. */
  tools: ToolSpec[];
}

/** Header of the notice that soft-disables tools. */
export const TOOL_NOTICE_HEADER = '[Tool Availability Notice]';

/**
 * The system prompt builder.
 *
 * ```ts
 * const builder = new SystemPromptBuilder({ os: 'linux', workspace: tree });
 * const built = await builder.build({ tools, unavailableTools: ['deploy'] });
 * model.generate({ system: built.parts, tools: built.tools, messages });
 * ```
 */
export class SystemPromptBuilder {
  private readonly sections: PromptSections;
  private readonly options: SystemPromptBuilderOptions;
  private readonly clock: Clock;
  private lastPrefix: SystemPart | undefined;
  private lastHash: string | undefined;

  constructor(options: SystemPromptBuilderOptions = {}) {
    this.options = options;
    this.sections = { ...DEFAULT_PROMPT_SECTIONS, ...options.sections };
    this.clock = options.clock ?? systemClock;
  }

  /** Hash of the last built prefix. */
  get prefixHash(): string | undefined {
    return this.lastHash;
  }

  /** Builds the prompt for one call. */
  async build(input: SystemPromptInput = {}): Promise<BuiltSystemPrompt> {
    const tools = sortTools(input.tools ?? []);
    const prefix = this.buildPrefix(tools);
    const prefixHash = fnv1a(prefix);
    const prefixChanged = prefixHash !== this.lastHash;
    // The same part object while the prefix is unchanged: token counts cached per part stay valid.
    if (prefixChanged || !this.lastPrefix) this.lastPrefix = { text: prefix, cache: true };
    this.lastHash = prefixHash;
    const suffix = await this.buildSuffix(input);
    return { parts: [this.lastPrefix, { text: suffix }], prefix, suffix, prefixHash, prefixChanged, tools };
  }

  /** A short prompt for simple queries: core instructions, style and the request (seed §84). */
  buildQuick(message: string): string {
    return [this.sections.core, this.sections.style, `User Request: ${message}`].join('\n\n');
  }

  /** Drops the cached workspace structure. */
  invalidate(): void {
    this.options.workspace?.invalidate();
  }

  private buildPrefix(tools: readonly ToolSpec[]): string {
    const s = this.sections;
    const toolSection =
      tools.length > 0
        ? `${s.tools}\n\nAvailable tools:\n${tools.map((t) => `- ${t.name}: ${t.description}`).join('\n')}`
        : s.tools;
    return [s.core, s.workflow, toolSection, s.style, s.outputFormat, ...(this.options.instructions ?? [])]
      .filter((text) => text.length > 0)
      .join('\n\n');
  }

  private async buildSuffix(input: SystemPromptInput): Promise<string> {
    const blocks: string[] = [];
    const env = ['**Environment:**'];
    if (this.options.os) env.push(`- OS: ${this.options.os}`);
    env.push(`- Timestamp: ${new Date(this.clock.now()).toISOString()}`);
    blocks.push(env.join('\n'));

    const workspace: string[] = [];
    const folders = this.options.workspaceFolders ?? [];
    if (folders.length > 0) workspace.push(`- Folders: ${folders.join(', ')}`);
    if (input.activeFile) workspace.push(`- Active file: ${input.activeFile}`);
    if (this.options.workspace) {
      workspace.push(`Workspace structure:\n\`\`\`\n${await this.options.workspace.get()}\n\`\`\``);
    }
    if (workspace.length > 0) blocks.push(`**Workspace:**\n${workspace.join('\n')}`);

    if (input.additionalContext) blocks.push(`**Additional Context:**\n${input.additionalContext}`);
    const notice = toolNotice(input.unavailableTools);
    if (notice) blocks.push(notice);
    for (const note of input.notes ?? []) if (note) blocks.push(note);
    return blocks.join('\n\n');
  }
}

/** Tools sorted by name (a new array of the same objects), for a stable schema order. */
export function sortTools(tools: readonly ToolSpec[]): ToolSpec[] {
  return [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function toolNotice(unavailable: Iterable<string> | undefined): string | undefined {
  if (!unavailable) return undefined;
  const names = [...new Set(unavailable)].sort();
  if (names.length === 0) return undefined;
  return `${TOOL_NOTICE_HEADER} The following tools are currently unavailable and must NOT be called: ${names.join(', ')}. Use alternative tools or approaches instead.`;
}
