/**
 * Names and messages shared by the dispatching side and the workers: the
 * job id of a step, its event channel, its cancel channel and key, and the
 * JSON messages on the event channel.
 * @module
 */

import type { StepJob } from '../agents/orchestrator/index.js';
import type { EventPayloads, EventTags, EventType } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { ConversationState } from '../state/run-state.js';

/** Default BullMQ queue name. */
export const DEFAULT_QUEUE_NAME = 'tandem-steps';

/** BullMQ job name of a step job. */
export const STEP_JOB_NAME = 'step';

/** How long a cancel marker is kept, for a worker that picks the job up late. */
export const CANCEL_TTL_MS = 3_600_000;

/**
 * The job id of a step job: the same run, step and attempt count give the
 * same id, so dispatching again does not enqueue twice. Parts are
 * URI-encoded, so `:` (refused by BullMQ) never appears and `/` separates
 * them unambiguously.
 */
export function stepJobId(job: Pick<StepJob, 'runId' | 'step' | 'attempts'>): string {
  return `${encodeURIComponent(job.runId)}/${encodeURIComponent(job.step.id)}/${job.attempts}`;
}

/** Channel of the events and checkpoints of job `jobId`. */
export function eventsChannel(jobId: string): string {
  return `tandem:queue:events:${jobId}`;
}

/** Channel on which job `jobId` is cancelled. */
export function cancelChannel(jobId: string): string {
  return `tandem:queue:cancel:${jobId}`;
}

/** Key marking job `jobId` cancelled, for a worker that subscribes after the cancel was published. */
export function cancelKey(jobId: string): string {
  return `tandem:queue:cancelled:${jobId}`;
}

/** A message on a job's event channel. */
export type QueueMessage =
  | { kind: 'event'; type: EventType; payload: EventPayloads[EventType]; tags?: EventTags }
  | { kind: 'conversation'; conversation: Omit<ConversationState, 'messages'>; messages: Message[] }
  /** The worker's last message: everything before it was published. */
  | { kind: 'end' };

/** The message in `text`, or `undefined` for anything that is not one (ignored, never a crash). */
export function decodeMessage(text: string): QueueMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  switch (message.kind) {
    case 'event':
      return typeof message.type === 'string' &&
        typeof message.payload === 'object' &&
        message.payload !== null
        ? (message as QueueMessage)
        : undefined;
    case 'conversation':
      return typeof message.conversation === 'object' && Array.isArray(message.messages)
        ? (message as QueueMessage)
        : undefined;
    case 'end':
      return { kind: 'end' };
    default:
      return undefined;
  }
}
