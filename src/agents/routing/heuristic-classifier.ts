/**
 * The heuristic classifier: simple or complex, without a model call.
 *
 * Rules in order: a dedicated mode or a selected skill → simple; fewer than
 * `minWords` words → simple; a strong multi-step or complexity pattern →
 * complex; weak signals ("next", "finally", "plan", "step by step"…) →
 * complex, confident only when two different ones agree; otherwise simple,
 * confident only for queries up to `longQueryWords` words. `confident: false`
 * tells the orchestrator to ask the LLM router or the planner's `decide`
 * (the seed treated any 5-word query with "next" in it as complex).
 * @module
 */

/** Whether a query needs a plan. */
export type Complexity = 'simple' | 'complex';

/** The classifier's verdict. */
export interface Classification {
  complexity: Complexity;
  /** Which rule decided, for logs and the `routing` event. */
  reason: string;
  /** False when the heuristics are unsure and an LLM should decide. */
  confident: boolean;
}

/** The pattern sets. Each replaces the default set when given. */
export interface ClassifierPatterns {
  /** Strong multi-step signals: one match → complex, confident. */
  multiStep: readonly RegExp[];
  /** Strong complexity keywords: one match → complex, confident. */
  complexity: readonly RegExp[];
  /** Weak signals: one → complex but not confident; two different ones → complex, confident. */
  weak: readonly RegExp[];
}

/** Options of {@link classifyQuery}. */
export interface ClassifyOptions {
  /** The run's mode (e.g. from the UI). A mode in `directModes` → simple. */
  mode?: string;
  /** Skills the user selected; any → simple (the executor invokes them directly). */
  skills?: readonly string[];
  /** Modes that run one skill directly. Default `['image', 'app', 'slide', 'data', 'research']`. */
  directModes?: readonly string[];
  /** Queries with fewer words are simple. Default 5. */
  minWords?: number;
  /** Above this many words, a query without signals is simple but not confident. Default 50. */
  longQueryWords?: number;
  patterns?: Partial<ClassifierPatterns>;
}

/** The seeds' patterns, split into strong and weak signals. */
export const DEFAULT_CLASSIFIER_PATTERNS: ClassifierPatterns = {
  multiStep: [
    /\bfirst\b.*\bthen\b/is,
    /\bstep\s*\d/i,
    /\b(?:and\s+then|after\s+that)\b/i,
    /(?:^|\n)\s*\d+[.)]\s+\w+.*\n\s*\d+[.)]\s+\w+/s,
  ],
  complexity: [
    /\bcomplete\s+(?:system|app|application|project|solution|dashboard)\b/i,
    /\b(?:build|implement|create)\s+(?:a|an|the)\s+[\w\s]+?\s+(?:with|and|including)\b/i,
  ],
  weak: [/\bnext\b/i, /\bfinally\b/i, /\bplan\b/i, /\bstep.by.step\b/i, /\bcomprehensive\b/i],
};

const DEFAULT_DIRECT_MODES: readonly string[] = ['image', 'app', 'slide', 'data', 'research'];

/** Classifies `query` as simple or complex by heuristics alone. */
export function classifyQuery(query: string, options: ClassifyOptions = {}): Classification {
  const patterns = { ...DEFAULT_CLASSIFIER_PATTERNS, ...options.patterns };
  const mode = options.mode?.trim().toLowerCase();
  if (mode && (options.directModes ?? DEFAULT_DIRECT_MODES).includes(mode)) {
    return { complexity: 'simple', reason: `dedicated mode "${mode}"`, confident: true };
  }
  if (options.skills?.length) {
    return { complexity: 'simple', reason: `skill selected: ${options.skills.join(', ')}`, confident: true };
  }
  const words = query.trim().split(/\s+/).filter(Boolean).length;
  if (words < (options.minWords ?? 5)) {
    return { complexity: 'simple', reason: `short query (${words} words)`, confident: true };
  }
  const multiStep = firstMatch(query, patterns.multiStep);
  if (multiStep !== undefined) {
    return { complexity: 'complex', reason: `multi-step pattern "${multiStep}"`, confident: true };
  }
  const keyword = firstMatch(query, patterns.complexity);
  if (keyword !== undefined) {
    return { complexity: 'complex', reason: `complexity pattern "${keyword}"`, confident: true };
  }
  const weak = distinctMatches(query, patterns.weak);
  if (weak.length > 0) {
    const signals = weak.map((w) => `"${w}"`).join(', ');
    return {
      complexity: 'complex',
      reason: `weak signal${weak.length > 1 ? 's' : ''} ${signals}`,
      confident: weak.length > 1,
    };
  }
  const long = words > (options.longQueryWords ?? 50);
  return {
    complexity: 'simple',
    reason: long ? `no multi-step signal in a long query (${words} words)` : 'no multi-step signal',
    confident: !long,
  };
}

const SNIPPET_CHARS = 60;

function firstMatch(query: string, patterns: readonly RegExp[]): string | undefined {
  for (const pattern of patterns) {
    const found = matchText(query, pattern);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Matched text of each pattern that matches, one per pattern, without case-insensitive repeats. */
function distinctMatches(query: string, patterns: readonly RegExp[]): string[] {
  const found: string[] = [];
  for (const pattern of patterns) {
    const text = matchText(query, pattern);
    if (text !== undefined && !found.some((f) => f.toLowerCase() === text.toLowerCase())) found.push(text);
  }
  return found;
}

function matchText(query: string, pattern: RegExp): string | undefined {
  // `match` ignores lastIndex, so caller-supplied global or sticky patterns behave like plain ones.
  const match = query.match(
    pattern.sticky ? new RegExp(pattern.source, pattern.flags.replace('y', '')) : pattern,
  );
  if (!match) return undefined;
  const text = match[0].replace(/\s+/g, ' ').trim();
  return text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 3)}...` : text;
}
