/**
 * tandem's own zod, imported on first use. The core's own schemas (plans,
 * routing replies, built-in tool arguments) are built through it, so
 * importing the package evaluates no zod: zod is most of a cold import, and a
 * run that never plans, routes or calls a built-in tool never needs it.
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { z } from 'zod/v4';
import { ConfigError, errorMessage } from '../core/errors.js';
import type { Schema } from './schema.js';

/** The `z` namespace of `zod/v4` (zod 4, or the zod 4 API that zod 3.25 ships). */
export type Zod = typeof z;

let zod: Zod | undefined;
let loading: Promise<Zod> | undefined;

/**
 * Imports zod, once per process; a failed import is retried on the next call.
 * @throws ConfigError when zod (a peer dependency) cannot be imported.
 */
export function loadZod(): Promise<Zod> {
  loading ??= import('zod/v4').then(
    (module) => {
      zod = module.z;
      return module.z;
    },
    (error: unknown) => {
      loading = undefined;
      throw new ConfigError(
        `tandem-agents needs its zod peer dependency (zod 4, or zod 3.25) for its own schemas: ${errorMessage(error)}`,
      );
    },
  );
  return loading;
}

/** The import of zod while it is under way, else undefined (it has not started, or is done). */
export function zodImporting(): Promise<Zod> | undefined {
  return zod ? undefined : loading;
}

/** zod when it is already imported, else undefined. */
export function loadedZod(): Zod | undefined {
  return zod;
}

/** A value built with zod once, when first asked for. */
export interface ZodBuilt<T> {
  /** The value, importing zod first when it is not yet. */
  load(): Promise<T>;
  /** The value, built with the zod already imported. */
  with(z: Zod): T;
}

/** Defers `build` until its value is first asked for: the process then has one zod, so one build serves. */
export function zodBuilt<T>(build: (z: Zod) => T): ZodBuilt<T> {
  let built: { value: T } | undefined;
  const withZod = (z: Zod): T => {
    built ??= { value: build(z) };
    return built.value;
  };
  return { with: withZod, load: () => (built ? Promise.resolve(built.value) : loadZod().then(withZod)) };
}

/** A Standard Schema that zod builds on first use (see {@link lazySchema}). */
export interface LazySchema<T> extends Schema<T> {
  /** The zod schema itself, importing zod first when it is not yet. */
  load(): Promise<z.ZodType<T>>;
  /** The zod schema itself, built with the zod already imported. */
  with(z: Zod): z.ZodType<T>;
}

const lazySchemas = new WeakSet<object>();

/** True for a schema made by {@link lazySchema}. */
export function isLazySchema(value: unknown): value is LazySchema<unknown> {
  return typeof value === 'object' && value !== null && lazySchemas.has(value);
}

/**
 * A Standard Schema whose zod schema is built on first validation. Until zod
 * is imported, validation is asynchronous (the import is awaited); after,
 * it is zod's own, synchronous for a synchronous schema. Its JSON Schema is
 * the built zod schema's, made by `jsonSchemaOf` when first needed.
 */
export function lazySchema<T>(build: (z: Zod) => z.ZodType<T>): LazySchema<T> {
  const schema = zodBuilt(build);
  const validate = (value: unknown) => {
    const z = loadedZod();
    if (z) return schema.with(z)['~standard'].validate(value);
    return schema.load().then((built) => built['~standard'].validate(value));
  };
  const standard: StandardSchemaV1.Props<unknown, T> = { version: 1, vendor: 'tandem', validate };
  const lazy: LazySchema<T> = { '~standard': standard, load: schema.load, with: schema.with };
  lazySchemas.add(lazy);
  return lazy;
}
