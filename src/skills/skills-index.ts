/**
 * The skills index: one line per skill in the system prompt, so the model
 * knows what `invoke_skill` can do without spending a turn on `list_skills`
 * (hermes puts the same index in its prompt). Sorted and stable, it sits in
 * the cached prefix.
 * @module
 */
import type { SystemPart } from '../model/types.js';
import type { SkillRegistry } from './registry.js';

/** Options of {@link skillsIndex}. */
export interface SkillsIndexOptions {
  /** Only skills of this category. */
  category?: string;
  /** Longest index; skills past it are counted, not listed. Default 4 000 characters. */
  maxChars?: number;
}

/**
 * A system prompt part listing the registry's skills by category:
 * `- <id>: <description>`. Pass it with the agent's instructions
 * (`instructions: [{ text: '…' }, skillsIndex(skills)]`).
 */
export function skillsIndex(skills: SkillRegistry, options: SkillsIndexOptions = {}): SystemPart {
  const maxChars = options.maxChars ?? 4_000;
  const list = skills
    .list({ category: options.category })
    .filter((s) => !s.id.includes('.'))
    .sort((a, b) => a.category.localeCompare(b.category) || a.id.localeCompare(b.id));
  const header = 'Skills you can run with invoke_skill (list_skills gives their parameters):';
  const lines: string[] = [header];
  let used = header.length;
  let category = '';
  for (const [i, skill] of list.entries()) {
    const heading = skill.category !== category ? `${skill.category}:` : undefined;
    const line = `- ${skill.id}: ${firstSentence(skill.description)}`;
    const cost = line.length + (heading ? heading.length + 1 : 0) + 1;
    if (used + cost > maxChars) {
      lines.push(`(${list.length - i} more: call list_skills)`);
      break;
    }
    if (heading) lines.push(heading);
    category = skill.category;
    lines.push(line);
    used += cost;
  }
  return { text: lines.join('\n'), cache: true };
}

function firstSentence(text: string): string {
  const line = text.split('\n')[0]!.trim();
  const end = line.search(/\.\s/);
  return end === -1 ? line : line.slice(0, end + 1);
}
