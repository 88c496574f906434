/**
 * The text a Redis list entry holds for one session item, and how a bad
 * entry is reported (naming its thread and seq).
 * @module
 */
import { base64Replacer } from '../core/media.js';
import type { Message } from '../core/messages.js';
import { SessionError, type SessionItem } from '../state/session.js';

/** Format version of a stored item's text; a newer one is refused, not misread. */
export const SESSION_ITEM_VERSION = 1;

/** An item without its seq, which is its position in the thread and not stored in the text. */
export type StoredSessionItem = Omit<SessionItem, 'seq'>;

/**
 * The stored text of an item: `{ v, message, runId?, createdAt }` as JSON,
 * with bytes (an image part's `Uint8Array` data) as base64 text — how they
 * load back, as with checkpoints.
 */
export function encodeSessionItem(item: StoredSessionItem): string {
  const { message, runId, createdAt } = item;
  return JSON.stringify({ v: SESSION_ITEM_VERSION, message, runId, createdAt }, base64Replacer);
}

/** Where a stored item sits, for the messages of errors about it. */
export interface SessionItemAddress {
  threadId: string;
  seq: number;
}

/**
 * The item stored as `text` at `address`.
 * @throws SessionError (`corrupt`) for text that is not an item,
 *   (`unsupported_version`) for an item written by a newer format.
 */
export function decodeSessionItem(text: string, address: SessionItemAddress): SessionItem {
  const where = `item ${address.seq} of thread ${JSON.stringify(address.threadId)}`;
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch (error) {
    throw new SessionError('corrupt', `Session ${where} is not valid JSON`, { cause: error });
  }
  const { v, message, runId, createdAt } = (stored ?? {}) as Record<string, unknown>;
  if (typeof v === 'number' && v > SESSION_ITEM_VERSION) {
    throw new SessionError(
      'unsupported_version',
      `Session ${where} has format version ${v}; this package reads up to ${SESSION_ITEM_VERSION}`,
    );
  }
  if (v !== SESSION_ITEM_VERSION || !isMessage(message) || typeof createdAt !== 'number') {
    throw new SessionError('corrupt', `Session ${where} is not a stored message`);
  }
  const item: SessionItem = { seq: address.seq, message, createdAt };
  if (typeof runId === 'string') item.runId = runId;
  return item;
}

function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { role?: unknown }).role === 'string' &&
    'content' in value
  );
}
