/**
 * Names and messages shared by the dispatching side and the workers: the
 * job id of a step, the event channel of its run, its cancel channel and
 * key, and the JSON packets on the event channel.
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

/**
 * Channel of the events and checkpoints of every step job of run `runId`:
 * one channel per run, so a dispatcher subscribes once for all the run's
 * steps; each packet names its job.
 */
export function eventsChannel(runId: string): string {
  return `tandem:queue:events:${runId}`;
}

/** Channel on which job `jobId` is cancelled. */
export function cancelChannel(jobId: string): string {
  return `tandem:queue:cancel:${jobId}`;
}

/** Key marking job `jobId` cancelled, for a worker that subscribes after the cancel was published. */
export function cancelKey(jobId: string): string {
  return `tandem:queue:cancelled:${jobId}`;
}

/** A message of a job on its run's event channel. */
export type QueueMessage =
  | { kind: 'event'; type: EventType; payload: EventPayloads[EventType]; tags?: EventTags }
  | { kind: 'conversation'; conversation: Omit<ConversationState, 'messages'>; messages: Message[] }
  /** The worker's last message: everything before it was published. */
  | { kind: 'end' };

/**
 * One PUBLISH on a run's event channel: messages of job `job`, in the order
 * the worker sent them (a worker batches the messages produced while its
 * previous packet was in flight).
 */
export interface QueuePacket {
  job: string;
  messages: QueueMessage[];
}

/**
 * The job and the raw messages of the packet in `text`, or `undefined` for
 * anything that is not one (ignored, never a crash); decode each message with
 * {@link decodeMessage}.
 */
export function decodePacket(text: string): { job: string; messages: unknown[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const packet = value as Record<string, unknown>;
  return typeof packet.job === 'string' && Array.isArray(packet.messages)
    ? { job: packet.job, messages: packet.messages }
    : undefined;
}

/** The message `value`, or `undefined` for anything that is not one (ignored, never a crash). */
export function decodeMessage(value: unknown): QueueMessage | undefined {
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
