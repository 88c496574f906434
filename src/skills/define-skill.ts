/**
 * Skills (seed 002 §79): typed, composable capabilities with validated
 * parameters and output (zod 4, any Standard Schema, or `jsonSchema()`). A
 * skill runs code — calls models, tools, agents and other skills through its
 * {@link SkillContext} — rather than bundling prompt text.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ConfigError } from '../core/errors.js';
import { jsonSchemaNow, jsonSchemaOf } from '../model/schema-json.js';
import type { JsonSchema } from '../model/types.js';
import { assertSchema, type Schema, type SchemaOutput } from '../tools/schema.js';
import type { Tool, ToolRisk } from '../tools/types.js';
import type { SkillContext } from './context.js';

/** A registered skill. `Params` and `Output` are the validated (schema output) types. */
export interface Skill<Params = any, Output = unknown> {
  readonly id: string;
  /** Display name. Default: the id. */
  readonly name: string;
  readonly version: string;
  /** What it does, for the model choosing skills. */
  readonly description: string;
  /** Free-form group: `research`, `code`, `data`, `creative`, `automation`… */
  readonly category: string;
  readonly tags: readonly string[];
  readonly parameters: Schema<Params>;
  readonly output: Schema<Output>;
  /** How much harm it can do; the `invoke_skill` tool takes the highest risk of the skills it exposes. */
  readonly risk: ToolRisk;
  /** Tools that must be available to the registry for the skill to run. */
  readonly requiredTools: readonly string[];
  /**
   * JSON Schema of `parameters` for the model, over the schema library's
   * (the definition's `parametersSchema`); {@link skillParametersSchema} gives the one shown.
   */
  readonly parametersSchema?: JsonSchema;
  /** The work. Its return value is validated against `output`. */
  run(params: Params, ctx: SkillContext): Promise<unknown> | unknown;
}

/** Options of {@link defineSkill}. */
export interface SkillDefinition<P extends StandardSchemaV1, O extends StandardSchemaV1> {
  id: string;
  name?: string;
  /** Default `1.0.0`. */
  version?: string;
  description: string;
  category: string;
  tags?: readonly string[];
  /** A zod 4 schema, any Standard Schema, or `jsonSchema()`. */
  parameters: P;
  /** JSON Schema of `parameters` for the model, over the one the schema library makes. */
  parametersSchema?: JsonSchema;
  output: O;
  /** Default `safe`. */
  risk?: ToolRisk;
  requiredTools?: readonly string[];
  run(
    params: SchemaOutput<P>,
    ctx: SkillContext,
  ): Promise<StandardSchemaV1.InferInput<O>> | StandardSchemaV1.InferInput<O>;
}

const SKILL_ID = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/;

/**
 * Defines a skill.
 *
 * ```ts
 * const summarize = defineSkill({
 *   id: 'summarize',
 *   description: 'Summarise a text in a few sentences',
 *   category: 'writing',
 *   parameters: z.object({ text: z.string(), sentences: z.number().int().min(1).default(3) }),
 *   output: z.object({ summary: z.string() }),
 *   async run({ text, sentences }, ctx) {
 *     return { summary: await ctx.generate(`Summarise in ${sentences} sentences:\n\n${text}`) };
 *   },
 * });
 * ```
 * @throws ConfigError for an id that is not 1–64 characters of `a-zA-Z0-9_.-` starting alphanumeric,
 *   for `parameters` or `output` that is not a schema, or parameters no JSON Schema can be made of.
 */
export function defineSkill<P extends StandardSchemaV1, O extends StandardSchemaV1>(
  definition: SkillDefinition<P, O>,
): Skill<SchemaOutput<P>, SchemaOutput<O>> {
  if (!SKILL_ID.test(definition.id)) {
    throw new ConfigError(`Skill id "${definition.id}" must match ${SKILL_ID}`);
  }
  const label = `Skill '${definition.id}'`;
  assertSchema(definition.parameters, `${label} parameters`);
  assertSchema(definition.output, `${label} output`);
  // Refused now when no JSON Schema can be had; one waiting on tandem's zod is made when first shown.
  jsonSchemaNow(definition.parameters, `${label} parameters`, { given: definition.parametersSchema });
  return {
    id: definition.id,
    name: definition.name ?? definition.id,
    version: definition.version ?? '1.0.0',
    description: definition.description,
    category: definition.category,
    tags: definition.tags ?? [],
    parameters: definition.parameters as Schema<SchemaOutput<P>>,
    output: definition.output as Schema<SchemaOutput<O>>,
    risk: definition.risk ?? 'safe',
    requiredTools: definition.requiredTools ?? [],
    ...(definition.parametersSchema === undefined ? {} : { parametersSchema: definition.parametersSchema }),
    run: definition.run as Skill['run'],
  };
}

/**
 * JSON Schema of a skill's parameters as `list_skills` shows it: its
 * `parametersSchema`, else the schema library's, made on first need (a zod
 * schema older than zod 4.2, or one of tandem's own, imports tandem's zod first).
 * @throws ConfigError (as a rejection) when no JSON Schema can be made of `parameters`.
 */
export function skillParametersSchema(skill: Skill): Promise<JsonSchema> {
  return jsonSchemaOf(skill.parameters, `Skill '${skill.id}' parameters`, { given: skill.parametersSchema });
}

/** The output schema of a tool skill given none: any value, as is. */
const ANY_OUTPUT: Schema<unknown> = {
  '~standard': { version: 1, vendor: 'tandem', validate: (value) => ({ value }) },
};

/** Options of {@link toolSkill}. */
export interface ToolSkillOptions<O extends StandardSchemaV1> {
  /** Default: the tool's name. */
  id?: string;
  /** Default `tool`. */
  category?: string;
  version?: string;
  tags?: readonly string[];
  /** Validates what the tool returns. Default: anything. */
  output?: O;
}

/**
 * A single-function skill from a tool (the seed's `ToolSkill`): same
 * parameters, description and risk; the tool runs with a context built from
 * the skill's (its call id is the invocation id).
 */
export function toolSkill<Args, O extends StandardSchemaV1 = Schema<unknown>>(
  tool: Tool<Args>,
  options: ToolSkillOptions<O> = {},
): Skill<Args, SchemaOutput<O>> {
  return defineSkill({
    id: options.id ?? tool.name,
    version: options.version,
    description: tool.description,
    category: options.category ?? 'tool',
    tags: options.tags,
    parameters: tool.parameters,
    parametersSchema: tool.jsonSchema,
    output: (options.output ?? ANY_OUTPUT) as O,
    risk: tool.risk,
    run: (params, ctx) => tool.execute(params as Args, ctx.toolContext()) as StandardSchemaV1.InferInput<O>,
  });
}
