/**
 * Memory shared between agents across a handoff (seed 003, §35–37): typed
 * fields with priorities, rendered for the receiving agent within a total
 * character budget. Fields that do not fit are cut at natural boundaries,
 * lowest priority first, and marked as cut.
 * @module
 */
import { smartTruncate } from './smart-truncate.js';

/** A source a research step found. */
export interface MemorySource {
  title: string;
  url: string;
  snippet?: string;
}

/** The well-known fields. Other keys hold a string or a list too. */
export interface SharedMemoryFields {
  researchFindings?: string;
  researchSources?: MemorySource[];
  generatedCode?: string;
  codeLanguage?: string;
  executionResults?: string;
  writingOutline?: string;
  writingDraft?: string;
  dataAnalysisPlan?: string;
  dataVisualizations?: string[];
  additionalContext?: string;
}

/** What a field holds. */
export type SharedMemoryValue = string | readonly unknown[];

/** Priorities of the well-known fields (seed §36); unknown keys have priority 1. */
export const DEFAULT_FIELD_PRIORITIES: Readonly<Record<keyof SharedMemoryFields, number>> = {
  researchFindings: 3,
  generatedCode: 3,
  writingDraft: 3,
  researchSources: 2,
  executionResults: 2,
  writingOutline: 2,
  dataAnalysisPlan: 2,
  additionalContext: 2,
  codeLanguage: 1,
  dataVisualizations: 1,
};

const LABELS: Record<string, string> = {
  researchFindings: 'Research Findings',
  researchSources: 'Sources',
  generatedCode: 'Generated Code',
  executionResults: 'Execution Results',
  writingOutline: 'Writing Outline',
  writingDraft: 'Writing Draft',
  dataAnalysisPlan: 'Data Analysis Plan',
  dataVisualizations: 'Data Visualizations',
  additionalContext: 'Additional Context',
};

/** Options of {@link SharedMemory}. */
export interface SharedMemoryOptions {
  /** Total characters of all fields. Default 8000. */
  budget?: number;
  /** Characters a field is allotted at least, while the budget allows. Default 200. */
  minFieldChars?: number;
  /** Items kept of a list. Default 10. */
  maxListItems?: number;
  /** Priorities by key, merged over {@link DEFAULT_FIELD_PRIORITIES}. */
  priorities?: Record<string, number>;
}

/** What the field `K` holds: its well-known type, else any {@link SharedMemoryValue}. */
export type SharedMemoryFieldValue<K extends string> = K extends keyof SharedMemoryFields
  ? NonNullable<SharedMemoryFields[K]>
  : SharedMemoryValue;

/**
 * Shared memory.
 *
 * ```ts
 * const memory = new SharedMemory();
 * memory.set('researchFindings', findings);
 * memory.set('researchSources', [{ title: 'Spec', url: 'https://example.org' }]);
 * const context = memory.render(); // "Shared Context:\n\n### Research Findings\n..."
 * ```
 */
export class SharedMemory {
  private readonly values = new Map<string, SharedMemoryValue>();
  private readonly budget: number;
  private readonly minFieldChars: number;
  private readonly maxListItems: number;
  private readonly priorities: Record<string, number>;

  constructor(options: SharedMemoryOptions = {}) {
    this.budget = options.budget ?? 8000;
    this.minFieldChars = options.minFieldChars ?? 200;
    this.maxListItems = options.maxListItems ?? 10;
    this.priorities = { ...DEFAULT_FIELD_PRIORITIES, ...options.priorities };
  }

  /** Sets a field (an empty string or list removes it). */
  set<K extends string>(key: K, value: SharedMemoryFieldValue<K>): void {
    if (value.length === 0) this.values.delete(key);
    else this.values.set(key, value);
  }

  /** A field's full value. */
  get<K extends string>(key: K): SharedMemoryFieldValue<K> | undefined {
    return this.values.get(key) as SharedMemoryFieldValue<K> | undefined;
  }

  /** Removes a field. */
  delete(key: string): void {
    this.values.delete(key);
  }

  /** Removes every field. */
  clear(): void {
    this.values.clear();
  }

  /** Every field, full size. */
  entries(): Record<string, SharedMemoryValue> {
    return Object.fromEntries(this.values);
  }

  /**
   * Every field within the budget (seed §36): unchanged when the total fits;
   * else each field gets a share by priority (at least `minFieldChars`), the
   * lowest priorities giving up characters first when the shares still
   * overflow, texts are cut by {@link smartTruncate} and lists to
   * `maxListItems` items (and fewer when their share is smaller).
   */
  fitted(): Record<string, SharedMemoryValue> {
    const keys = [...this.values.keys()];
    const sizes = new Map(keys.map((k) => [k, sizeOf(this.values.get(k)!)]));
    let total = 0;
    for (const size of sizes.values()) total += size;
    if (total <= this.budget) return this.entries();

    const priority = (k: string) => this.priorities[k] ?? 1;
    const sumP = keys.reduce((acc, k) => acc + priority(k), 0);
    const alloc = new Map(
      keys.map((k) => [k, Math.max(this.minFieldChars, Math.floor((priority(k) / sumP) * this.budget))]),
    );
    let used = 0;
    for (const k of keys) used += Math.min(alloc.get(k)!, sizes.get(k)!);
    // Lowest priority first, down to the floor, then below it (never to nothing).
    const byPriority = [...keys].sort((a, b) => priority(a) - priority(b));
    for (const floor of [this.minFieldChars, 1]) {
      for (const k of byPriority) {
        if (used <= this.budget) break;
        const current = Math.min(alloc.get(k)!, sizes.get(k)!);
        const cut = Math.min(current - floor, used - this.budget);
        if (cut <= 0) continue;
        alloc.set(k, current - cut);
        used -= cut;
      }
    }
    const out: Record<string, SharedMemoryValue> = {};
    for (const k of keys) out[k] = this.fit(this.values.get(k)!, alloc.get(k)!);
    return out;
  }

  /**
   * The fitted fields as a context block for the agent that receives a
   * handoff. `include` limits the fields shown.
   */
  render(options: { include?: readonly string[]; heading?: string } = {}): string {
    const fields = this.fitted();
    const language = typeof fields.codeLanguage === 'string' ? fields.codeLanguage : '';
    const blocks: string[] = [];
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'codeLanguage' || (options.include && !options.include.includes(key))) continue;
      const label = LABELS[key] ?? key;
      if (key === 'generatedCode' && typeof value === 'string') {
        blocks.push(`### ${label}\n\`\`\`${language}\n${value}\n\`\`\``);
      } else if (typeof value === 'string') {
        blocks.push(`### ${label}\n${value}`);
      } else {
        const hidden = (this.values.get(key)?.length ?? 0) - value.length;
        const lines = value.map(renderItem);
        if (hidden > 0) lines.push(`- ... (${hidden} more items)`);
        blocks.push(`### ${label}\n${lines.join('\n')}`);
      }
    }
    if (blocks.length === 0) return '';
    return `${options.heading ?? 'Shared Context:'}\n\n${blocks.join('\n\n')}`;
  }

  private fit(value: SharedMemoryValue, chars: number): SharedMemoryValue {
    if (typeof value === 'string') return smartTruncate(value, chars);
    let items = value.slice(0, this.maxListItems);
    while (items.length > 1 && sizeOf(items) > chars) items = items.slice(0, -1);
    return items;
  }
}

function sizeOf(value: SharedMemoryValue): number {
  return typeof value === 'string' ? value.length : JSON.stringify(value).length;
}

function renderItem(item: unknown): string {
  if (typeof item === 'string') return `- ${item}`;
  if (item && typeof item === 'object' && 'url' in item) {
    const source = item as MemorySource;
    const snippet = source.snippet ? `: ${source.snippet.slice(0, 200)}` : '';
    return `- [${source.title ?? source.url}](${source.url})${snippet}`;
  }
  return `- ${JSON.stringify(item)}`;
}
