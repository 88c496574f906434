/**
 * Which tiktoken encoding a model uses, and the lazy loaders of its rank data.
 * Rank files are megabytes; they are imported on first use only, never by
 * importing the package.
 * @module
 */
import { type BpeCounter, bpeCounter } from './bpe.js';

/** The tiktoken encodings tandem counts with. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** What {@link loadEncoding} returns: the part of a js-tiktoken encoder tandem exposes. */
export interface Encoder {
  encode(text: string, allowedSpecial?: string[] | 'all', disallowedSpecial?: string[] | 'all'): number[];
}

const O200K = /^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o\d)/;
const CL100K = /^(gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)/;

/** The model name without a `provider:` prefix or a `vendor/` path, lower-cased. */
export function bareModelName(model: string): string {
  const afterProvider = model.slice(model.indexOf(':') + 1);
  return afterProvider.slice(afterProvider.lastIndexOf('/') + 1).toLowerCase();
}

/**
 * The encoding of an OpenAI model (`gpt-4o`, `gpt-4.1`, `gpt-5`, `o1`/`o3`/`o4`
 * → `o200k_base`; `gpt-4`, `gpt-3.5` → `cl100k_base`), or `undefined` for
 * models whose tokenizer tiktoken does not know (they are estimated).
 * Accepts `openai:gpt-4o` and `openai/gpt-4o` forms.
 */
export function encodingForModel(model: string): EncodingName | undefined {
  const name = bareModelName(model);
  if (O200K.test(name)) return 'o200k_base';
  if (CL100K.test(name)) return 'cl100k_base';
  return undefined;
}

// Process-wide: rank data is immutable, so every counter shares one encoder per encoding.
const encoders = new Map<EncodingName, Promise<Encoder>>();

/** Loads (once per process) and returns the encoder of `name`. A failed load is retried on the next call. */
export function loadEncoding(name: EncodingName): Promise<Encoder> {
  let pending = encoders.get(name);
  if (!pending) {
    pending = importEncoder(name);
    encoders.set(name, pending);
    pending.catch(() => encoders.delete(name));
  }
  return pending;
}

async function importEncoder(name: EncodingName): Promise<Encoder> {
  const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), importRanks(name)]);
  return new Tiktoken(ranks);
}

const counters = new Map<EncodingName, Promise<BpeCounter>>();

/**
 * Loads (once per process) the token counter of `name`: counts equal to the
 * encoder's, without its per-call set-up. A failed load is retried on the next call.
 */
export function loadCounter(name: EncodingName): Promise<BpeCounter> {
  let pending = counters.get(name);
  if (!pending) {
    pending = importRanks(name).then(bpeCounter);
    counters.set(name, pending);
    pending.catch(() => counters.delete(name));
  }
  return pending;
}

async function importRanks(name: EncodingName) {
  // Literal specifiers so bundlers can split each rank file into its own lazy chunk.
  const ranks =
    name === 'o200k_base'
      ? await import('js-tiktoken/ranks/o200k_base')
      : await import('js-tiktoken/ranks/cl100k_base');
  return ranks.default;
}
