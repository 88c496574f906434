/**
 * Turns a tandem run's events into UI message stream chunks, one event at a
 * time. Deterministic: the same events give the same chunks (part ids come
 * from the `seq` of the event that opened the part), which is what lets a
 * reconnecting client skip the chunks it already has.
 * @module
 */
import type { TandemEvent } from '../core/events.js';
import type { TandemDataChunk, UIChunk, UIFinishReason } from './chunks.js';

/** Options of {@link UIChunkConverter} (and `toUIMessageStream`). */
export interface UIStreamOptions {
  /** Id of the assistant message (the `start` chunk's `messageId`); continuing an answered approval, the last assistant message's id. */
  messageId?: string;
  /**
   * The approvals the request answered (`fromUIMessages(...).approvals`),
   * streaming the resumed run: the client has these calls already, so only
   * their outcome streams — a rejected one as `tool-output-denied`, as the AI SDK's own.
   */
  approvals?: readonly { toolCallId: string; approved: boolean }[];
  /** Stream the `data-*` parts (plan, step, checklist, usage). Default `true`. */
  data?: boolean;
  /**
   * Stream `tool-approval-request` chunks. Default `true`. Set `false` for an
   * `ai` 5 client: its chunk schema has no such type, so its
   * `DefaultChatTransport` would fail the whole stream on one; without it the
   * call stays `input-available` and the app answers the interrupt itself.
   */
  approvalRequests?: boolean;
}

interface OpenPart {
  id: string;
  /** Who writes it: concurrent plan steps each get their own text part. */
  key: string;
}

const FINISH: Record<string, UIFinishReason> = {
  success: 'stop',
  partial: 'length',
  interrupted: 'tool-calls',
  failed: 'error',
};

/** Folds events into chunks; keeps the open parts and the step boundary. */
export class UIChunkConverter {
  private started = false;
  private stepOpen = false;
  /** The open step's tools have answered: the next model output opens a step (the model call's `usage` comes before its `tool_call`s). */
  private turnEnded = false;
  private text: OpenPart | undefined;
  private reasoning: OpenPart | undefined;
  private readonly awaiting = new Set<string>();
  private readonly denied: Set<string>;
  private readonly answered: Set<string>;
  private ended = false;

  constructor(private readonly options: UIStreamOptions = {}) {
    const approvals = options.approvals ?? [];
    this.answered = new Set(approvals.map((a) => a.toolCallId));
    this.denied = new Set(approvals.filter((a) => !a.approved).map((a) => a.toolCallId));
  }

  /** The chunks `event` adds (none for events a UI message has no part for). */
  push(event: TandemEvent): UIChunk[] {
    if (this.ended) return [];
    const out: UIChunk[] = [];
    if (!this.started) {
      this.started = true;
      out.push(
        this.options.messageId ? { type: 'start', messageId: this.options.messageId } : { type: 'start' },
      );
    }
    this.convert(event, out);
    return out;
  }

  private convert(event: TandemEvent, out: UIChunk[]): void {
    switch (event.type) {
      case 'token':
        this.delta(event, 'text', out);
        return;
      case 'reasoning':
        this.delta(event, 'reasoning', out);
        return;
      case 'tool_call':
        if (this.answered.has(event.id)) return;
        this.step(out);
        this.closeParts(out);
        out.push({ type: 'tool-input-start', toolCallId: event.id, toolName: event.name });
        out.push({
          type: 'tool-input-available',
          toolCallId: event.id,
          toolName: event.name,
          input: event.args,
        });
        return;
      case 'interrupt': {
        const { interrupt } = event;
        if (interrupt.kind !== 'approval' || !interrupt.toolCallId) return;
        this.awaiting.add(interrupt.toolCallId);
        if (this.options.approvalRequests === false) return;
        out.push({
          type: 'tool-approval-request',
          approvalId: interrupt.id,
          toolCallId: interrupt.toolCallId,
        });
        return;
      }
      case 'tool_result':
        this.toolResult(event, out);
        return;
      case 'usage':
        this.data(out, {
          type: 'data-usage',
          id: 'usage',
          data: { model: event.model, total: event.total },
        });
        return;
      case 'source':
        out.push({ type: 'source-url', sourceId: `source-${event.seq}`, url: event.url, title: event.title });
        return;
      case 'complete':
        this.finish(out, event.status === 'failed' ? event.error?.message : undefined, FINISH[event.status]);
        return;
      case 'error':
        this.finish(out, event.error.message, 'error');
        return;
      default:
        this.planData(event, out);
        return;
    }
  }

  private delta(event: TandemEvent<'token' | 'reasoning'>, kind: 'text' | 'reasoning', out: UIChunk[]): void {
    this.step(out);
    const key = `${event.agent ?? ''}/${event.stepId ?? ''}/${event.parentId ?? ''}`;
    const other = kind === 'text' ? 'reasoning' : 'text';
    this.close(other, out);
    if (this[kind]?.key !== key) {
      this.close(kind, out);
      this[kind] = { id: `${kind}-${event.seq}`, key };
      out.push({ type: `${kind}-start`, id: this[kind].id });
    }
    out.push({ type: `${kind}-delta`, id: this[kind]!.id, delta: event.delta });
  }

  private toolResult(event: TandemEvent<'tool_result'>, out: UIChunk[]): void {
    this.turnEnded = true;
    // A call waiting for approval has no output yet: the resumed run sends it.
    if (this.awaiting.has(event.id)) return;
    if (this.denied.has(event.id)) out.push({ type: 'tool-output-denied', toolCallId: event.id });
    else if (event.isError)
      out.push({ type: 'tool-output-error', toolCallId: event.id, errorText: event.output });
    else out.push({ type: 'tool-output-available', toolCallId: event.id, output: event.output });
  }

  private planData(event: TandemEvent, out: UIChunk[]): void {
    switch (event.type) {
      case 'plan_overview':
        this.data(out, {
          type: 'data-plan',
          id: 'plan',
          data: { title: event.title, summary: event.summary, steps: event.steps },
        });
        return;
      case 'plan_revised':
        this.data(out, {
          type: 'data-plan',
          id: 'plan',
          data: { revision: event.revision, steps: event.steps },
        });
        return;
      case 'plan_step_started': {
        const { step, attempt } = event;
        const data = { stepId: step.id, status: 'running' as const, description: step.description, attempt };
        this.data(out, { type: 'data-step', id: step.id, data });
        return;
      }
      case 'plan_step_completed': {
        const stepId = event.stepId ?? '';
        const data = { stepId, status: 'completed' as const, completed: event.completed, total: event.total };
        this.data(out, { type: 'data-step', id: stepId, data });
        return;
      }
      case 'plan_step_failed': {
        const stepId = event.stepId ?? '';
        this.data(out, {
          type: 'data-step',
          id: stepId,
          data: { stepId, status: 'failed', error: event.error },
        });
        return;
      }
      case 'todo_update':
        this.data(out, {
          type: 'data-checklist',
          id: 'checklist',
          data: { content: event.content, checked: event.checked, total: event.total },
        });
        return;
    }
  }

  private data(out: UIChunk[], chunk: TandemDataChunk): void {
    if (this.options.data !== false) out.push(chunk);
  }

  /** Opens a step for new model output, closing the previous one when its model call ended. */
  private step(out: UIChunk[]): void {
    if (this.stepOpen && !this.turnEnded) return;
    if (this.stepOpen) {
      this.closeParts(out);
      out.push({ type: 'finish-step' });
    }
    out.push({ type: 'start-step' });
    this.stepOpen = true;
    this.turnEnded = false;
  }

  private close(kind: 'text' | 'reasoning', out: UIChunk[]): void {
    const part = this[kind];
    if (!part) return;
    out.push({ type: `${kind}-end`, id: part.id });
    this[kind] = undefined;
  }

  private closeParts(out: UIChunk[]): void {
    this.close('reasoning', out);
    this.close('text', out);
  }

  private finish(out: UIChunk[], errorText: string | undefined, reason: UIFinishReason | undefined): void {
    this.closeParts(out);
    if (this.stepOpen) out.push({ type: 'finish-step' });
    this.stepOpen = false;
    if (errorText !== undefined) out.push({ type: 'error', errorText });
    out.push(reason ? { type: 'finish', finishReason: reason } : { type: 'finish' });
    this.ended = true;
  }
}
