/**
 * The tools an agent may call, looked up by the name a model produced.
 * Models misspell tool names (`ReadFile`, `read-file`, `read_fle`); the
 * registry repairs what it safely can so a turn is not wasted on a typo.
 * Tools whose names differ only in a meaningful part (`handoff_to_data`,
 * `handoff_to_writing`) register as a {@link ToolFamily}, which is never
 * guessed at.
 * @module
 */
import { ConfigError } from '../core/errors.js';
import type { ToolSpec } from '../model/types.js';
import { assertSchema } from './schema.js';
import { similarity } from './similarity.js';
import { type Tool, toolSpec } from './types.js';

/** A resolved tool name. */
export interface ToolResolution {
  tool: Tool;
  /** The name the model used, set when it was repaired to `tool.name`. */
  requestedName?: string;
}

/**
 * Tools named `<prefix><part>` where the part is the point of the call, such
 * as the target of a handoff: a misspelt part is never repaired into another
 * member, since that would do something the model did not ask for.
 */
export interface ToolFamily {
  /** The start every member's normalised name shares (see {@link normalizeToolName}), e.g. `handoff_to_`. */
  prefix: string;
  /** The members the model is offered. */
  tools: readonly Tool[];
  /**
   * The tool answering a name of the family that no member has, given the
   * normalised name (e.g. one that refuses with a reason the model can act
   * on); `undefined` leaves the name an unknown tool.
   */
  resolve?(normalizedName: string): Tool | undefined;
}

/** Lowest similarity at which a misspelt name is matched (the seeds' difflib cut-off). */
const FUZZY_CUTOFF = 0.7;
/** Names longer than this are not fuzzy-matched: no tool name is, and matching is quadratic. */
const FUZZY_MAX_LENGTH = 128;
/** Repaired lookups (hits and misses) remembered before the cache starts over. */
const CACHE_LIMIT = 256;

/**
 * `readFile`, `Read-File`, `read file`, `READ_FILE` → `read_file`. Acronyms stay
 * together: `HTTPRequest` → `http_request`.
 */
export function normalizeToolName(name: string): string {
  return name
    .trim()
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s\-.]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();
}

/** A set of tools with name repair and a stable, sorted spec list. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private sortedNames: string[] | undefined;
  /** The specs of the current tools, once built; `building` is their build under way. */
  private specList: ToolSpec[] | undefined;
  private building: Promise<ToolSpec[]> | undefined;
  /** Lower-cased and normalised names; `null` marks a key two tools share, which is never guessed. */
  private byLower: Map<string, Tool | null> | undefined;
  private byNormalized: Map<string, Tool | null> | undefined;
  private readonly repaired = new Map<string, ToolResolution | null>();
  private readonly families: ToolFamily[] = [];
  private readonly members = new Set<Tool>();

  constructor(tools?: Iterable<Tool>) {
    if (tools) for (const tool of tools) this.register(tool);
  }

  /**
   * Adds a tool.
   * @throws ConfigError when a tool of that name is already registered, or a hand-built tool's
   *   `parameters` is not a schema.
   */
  register(tool: Tool): this {
    if (this.tools.has(tool.name)) throw new ConfigError(`Tool "${tool.name}" is already registered`);
    assertSchema(tool.parameters, `Tool '${tool.name}' parameters`);
    this.tools.set(tool.name, tool);
    this.sortedNames = undefined;
    this.specList = undefined;
    this.building = undefined;
    this.byLower = undefined;
    this.byNormalized = undefined;
    this.repaired.clear();
    return this;
  }

  /**
   * Adds a family's tools. They are found by exact, case-insensitive and
   * normalised name like any tool, but never by similarity; a name with the
   * family's prefix that no member has goes to `family.resolve`, never to
   * another tool.
   * @throws ConfigError as {@link ToolRegistry.register} does.
   */
  registerFamily(family: ToolFamily): this {
    for (const tool of family.tools) {
      this.register(tool);
      this.members.add(tool);
    }
    this.families.push(family);
    return this;
  }

  /** The tool of exactly this name. */
  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** Number of tools. */
  get size(): number {
    return this.tools.size;
  }

  /** Tool names, sorted. The array is shared: do not mutate it. */
  names(): string[] {
    if (!this.sortedNames) this.sortedNames = [...this.tools.keys()].sort();
    return this.sortedNames;
  }

  /**
   * Provider specs sorted by name, built on first need (a tool's JSON Schema
   * may wait on tandem's zod: see {@link toolSpec}). The same array is given
   * until a tool is registered, so a prompt built from it is byte-identical
   * across turns and provider prompt caches keep hitting.
   * @throws ConfigError (as a rejection) naming the tool whose parameters have no object JSON Schema.
   */
  specs(): Promise<ToolSpec[]> {
    if (this.specList) return Promise.resolve(this.specList);
    if (this.building) return this.building;
    const building = Promise.all(this.names().map((name) => toolSpec(this.tools.get(name)!))).then(
      (list) => {
        // A tool registered meanwhile made this list stale: the registry's own build stands.
        if (this.building === building) this.specList = list;
        return list;
      },
      (error: unknown) => {
        if (this.building === building) this.building = undefined;
        throw error;
      },
    );
    this.building = building;
    return building;
  }

  /**
   * The specs of the current tools when {@link ToolRegistry.specs} has built
   * them, else `undefined` (never built, or a tool was registered since): the
   * turn's request reads them without waiting, and awaits `specs()` otherwise.
   */
  builtSpecs(): ToolSpec[] | undefined {
    return this.specList;
  }

  /**
   * Finds the tool a model meant: exact name, then case-insensitive, then
   * normalised to snake_case (see {@link normalizeToolName}), then, for a name
   * of a {@link ToolFamily}, the family's `resolve`, and otherwise the most
   * similar name outside every family at similarity ≥ 0.7. `undefined` when
   * nothing matches. Repaired lookups are cached until the registry changes.
   */
  resolve(name: string): ToolResolution | undefined {
    const exact = this.tools.get(name);
    if (exact) return { tool: exact };
    const cached = this.repaired.get(name);
    if (cached !== undefined) return cached ?? undefined;
    const tool = this.repair(name);
    const resolution = !tool ? null : tool.name === name ? { tool } : { tool, requestedName: name };
    if (this.repaired.size >= CACHE_LIMIT) this.repaired.clear();
    this.repaired.set(name, resolution);
    return resolution ?? undefined;
  }

  private repair(name: string): Tool | undefined {
    if (!this.byLower || !this.byNormalized) {
      this.byLower = new Map();
      this.byNormalized = new Map();
      for (const tool of this.tools.values()) {
        addUnique(this.byLower, tool.name.toLowerCase(), tool);
        addUnique(this.byNormalized, normalizeToolName(tool.name), tool);
      }
    }
    const lower = this.byLower.get(name.toLowerCase());
    if (lower) return lower;
    const normalized = normalizeToolName(name);
    const byNormalized = this.byNormalized.get(normalized);
    if (byNormalized) return byNormalized;
    const family = this.families.find((f) => normalized.startsWith(f.prefix));
    if (family) return family.resolve?.(normalized);
    if (normalized.length === 0 || normalized.length > FUZZY_MAX_LENGTH) return undefined;
    let best: Tool | undefined;
    let bestScore = FUZZY_CUTOFF;
    for (const [key, tool] of this.byNormalized) {
      if (!tool || this.members.has(tool)) continue;
      const score = similarity(normalized, key);
      if (score > bestScore || (score === bestScore && (!best || tool.name < best.name))) {
        best = tool;
        bestScore = score;
      }
    }
    return best;
  }
}

function addUnique(map: Map<string, Tool | null>, key: string, tool: Tool): void {
  map.set(key, map.has(key) ? null : tool);
}
