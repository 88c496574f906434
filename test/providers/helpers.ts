/**
 * Helpers the provider adapter tests share: collecting streams, expecting a
 * failure, replaying a fixture through a model, and a tool spec to send.
 */
import { expect } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import { StreamAggregator } from '../../src/model/stream.js';
import type { ChatModel, ModelRequest, ModelResponse, ModelStreamPart } from '../../src/model/types.js';
import { type FixtureSet, OWN_FIXTURES } from './fixture-files.js';
import { type FixtureServer, type ServeOptions, serveFixture } from './fixture-server.js';

/** A chat model whose `stream` is known to exist. */
export type StreamingModel = ChatModel & { stream: NonNullable<ChatModel['stream']> };

/** The rejection of `promise`; throws when it resolves, so a missing error fails the test. */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The rejection of `promise`, asserted to be a {@link ModelError}. */
export async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

/** Reads `stream` to its end, appending each part to `seen` (kept when the stream throws) and returning it. */
export async function drain(
  stream: AsyncIterable<ModelStreamPart>,
  seen: ModelStreamPart[] = [],
): Promise<ModelStreamPart[]> {
  for await (const part of stream) seen.push(part);
  return seen;
}

/** Every part of `stream` and the response they aggregate to. */
export async function collectParts(
  stream: AsyncIterable<ModelStreamPart>,
): Promise<{ parts: ModelStreamPart[]; response: ModelResponse }> {
  const parts = await drain(stream);
  const aggregator = new StreamAggregator();
  for (const part of parts) aggregator.push(part);
  return { parts, response: aggregator.response() };
}

/** Calls that serve one fixture of `from` from `server` and send `request` to a fresh `model()`. */
export function fixtureReplies(
  server: FixtureServer,
  model: () => StreamingModel,
  request: ModelRequest,
  from: FixtureSet = OWN_FIXTURES,
) {
  return {
    /** Streams the reply to `file`: its parts and their aggregate. */
    streamed(file: string, serve: ServeOptions = {}) {
      server.handle(serveFixture(file, { from, ...serve }));
      return collectParts(model().stream(request));
    },
    /** The whole reply to `file` from `generate`. */
    generated(file: string): Promise<ModelResponse> {
      server.handle(serveFixture(file, { from }));
      return model().generate(request);
    },
  };
}

/** The `add` tool spec the request-mapping tests send. */
export const ADD_TOOL = {
  name: 'add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};
