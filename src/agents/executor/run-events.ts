/**
 * The event an Executor run opens with, `run_started` (the request's text
 * and ids), and the tags of an agent's events.
 * @module
 */
import type { EventPayloads, EventTags } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import { contentText, type RunIds } from '../../core/run-input.js';

export function tagsOf(agent: string, stepId: string | undefined): EventTags {
  return stepId === undefined ? { agent } : { agent, stepId };
}

/** The `run_started` payload: the request's text and the ids the caller gave. */
export function startedPayload(messages: readonly Message[], ids: RunIds): EventPayloads['run_started'] {
  const started: EventPayloads['run_started'] = { input: inputText(messages) };
  if (ids.resourceId !== undefined) started.resourceId = ids.resourceId;
  if (ids.threadId !== undefined) started.threadId = ids.threadId;
  return started;
}

function inputText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return contentText(message.content);
  }
  return '';
}
