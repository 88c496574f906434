/**
 * Turns a tandem run's events into AG-UI events, one event at a time.
 * Deterministic: the same events give the same AG-UI events (message ids come
 * from the `seq` of the event that opened the message), which is what lets a
 * reconnecting client skip the events it already has.
 * @module
 */
import type { PlanStepView, TandemEvent } from '../core/events.js';
import type { AgUiEvent, AgUiInterrupt, AgUiPatchOp, AgUiTandemState } from './events.js';

/** Options of {@link AgUiConverter}. */
export interface AgUiConvertOptions {
  /** The AG-UI thread id (`RUN_STARTED` / `RUN_FINISHED` carry it). */
  threadId: string;
  /** The AG-UI run id; default the tandem run's id. */
  runId?: string;
  /** Names of the tools the frontend executes: their calls end the run as pending tool calls. */
  frontendTools?: ReadonlySet<string>;
  /** Ids of tool calls the client has already seen (a resumed run's answered calls): not sent again. */
  answeredCalls?: ReadonlySet<string>;
  /** Ids of frontend tool calls whose results the client sent: it has them, so they are not sent back. */
  clientResults?: ReadonlySet<string>;
}

interface OpenMessage {
  id: string;
  key: string;
}

/** Folds tandem events into AG-UI events; keeps the open messages and the synced state. */
export class AgUiConverter {
  private started = false;
  private ended = false;
  private text: OpenMessage | undefined;
  private reasoning: OpenMessage | undefined;
  private state: AgUiTandemState | undefined;
  /** Calls that wait for the client (frontend tools) or an approval: their placeholder results are not sent. */
  private readonly waiting = new Set<string>();
  private readonly pendingCalls: string[] = [];
  private readonly interrupts: AgUiInterrupt[] = [];

  constructor(private readonly options: AgUiConvertOptions) {}

  /** The AG-UI events `event` adds (none for events AG-UI has no counterpart for). */
  push(event: TandemEvent): AgUiEvent[] {
    if (this.ended) return [];
    const out: AgUiEvent[] = [];
    if (!this.started) {
      this.started = true;
      out.push({ type: 'RUN_STARTED', threadId: this.options.threadId, runId: this.runId(event) });
    }
    this.convert(event, out);
    return out;
  }

  private runId(event: TandemEvent): string {
    return this.options.runId ?? event.runId;
  }

  private convert(event: TandemEvent, out: AgUiEvent[]): void {
    switch (event.type) {
      case 'token':
        this.closeReasoning(out);
        this.openText(event, out);
        out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: this.text!.id, delta: event.delta });
        return;
      case 'reasoning':
        this.closeText(out);
        this.openReasoning(event, out);
        out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: this.reasoning!.id, delta: event.delta });
        return;
      case 'tool_call':
        this.closeAll(out);
        if (this.options.answeredCalls?.has(event.id)) return;
        out.push({ type: 'TOOL_CALL_START', toolCallId: event.id, toolCallName: event.name });
        out.push({ type: 'TOOL_CALL_ARGS', toolCallId: event.id, delta: JSON.stringify(event.args ?? {}) });
        out.push({ type: 'TOOL_CALL_END', toolCallId: event.id });
        return;
      case 'interrupt':
        this.interrupt(event);
        return;
      case 'tool_result':
        this.closeAll(out);
        if (this.waiting.has(event.id) || this.options.clientResults?.has(event.id)) return;
        out.push({
          type: 'TOOL_CALL_RESULT',
          messageId: `result-${event.seq}`,
          toolCallId: event.id,
          content: event.output,
          role: 'tool',
        });
        return;
      case 'complete':
        this.closeAll(out);
        this.finish(event, out);
        return;
      case 'error':
        this.closeAll(out);
        out.push({ type: 'RUN_ERROR', message: event.error.message, code: event.error.kind });
        this.ended = true;
        return;
      default:
        this.plan(event, out);
    }
  }

  private interrupt(event: TandemEvent<'interrupt'>): void {
    const { interrupt } = event;
    const callId = interrupt.toolCallId;
    if (callId) this.waiting.add(callId);
    if (callId && interrupt.toolName && this.options.frontendTools?.has(interrupt.toolName)) {
      this.pendingCalls.push(callId);
      return;
    }
    const view: AgUiInterrupt = {
      id: interrupt.id,
      reason: interrupt.kind === 'approval' ? 'tool_approval' : interrupt.kind,
      message: interrupt.message ?? interrupt.title,
    };
    if (callId) view.toolCallId = callId;
    const metadata: Record<string, unknown> = {};
    if (interrupt.toolName) metadata.toolName = interrupt.toolName;
    if (interrupt.args !== undefined) metadata.args = interrupt.args;
    if (interrupt.options) metadata.options = interrupt.options;
    if (Object.keys(metadata).length > 0) view.metadata = metadata;
    this.interrupts.push(view);
  }

  private finish(event: TandemEvent<'complete'>, out: AgUiEvent[]): void {
    this.ended = true;
    if (event.status === 'failed') {
      out.push({ type: 'RUN_ERROR', message: event.error?.message ?? 'Run failed', code: event.error?.kind });
      return;
    }
    const base = { type: 'RUN_FINISHED' as const, threadId: this.options.threadId, runId: this.runId(event) };
    if (this.interrupts.length > 0) {
      out.push({ ...base, outcome: { type: 'interrupt', interrupts: this.interrupts } });
    } else if (this.pendingCalls.length > 0) {
      out.push({ ...base, outcome: { type: 'success', pendingToolCallIds: this.pendingCalls } });
    } else {
      out.push({ ...base, result: event.output, outcome: { type: 'success' } });
    }
  }

  /** Plan steps as AG-UI steps; the plan and the checklist as the synced state. */
  private plan(event: TandemEvent, out: AgUiEvent[]): void {
    switch (event.type) {
      case 'plan_overview':
        this.setState(out, {
          plan: { title: event.title, summary: event.summary, steps: copy(event.steps) },
        });
        return;
      case 'plan_revised':
        this.setState(out, {
          plan: { ...this.state?.plan, revision: event.revision, steps: copy(event.steps) },
        });
        return;
      case 'plan_step_started':
        out.push({ type: 'STEP_STARTED', stepName: event.step.id });
        this.stepStatus(event.step.id, 'running', out);
        return;
      case 'plan_step_completed':
      case 'plan_step_failed':
        if (event.stepId === undefined) return;
        out.push({ type: 'STEP_FINISHED', stepName: event.stepId });
        this.stepStatus(event.stepId, event.type === 'plan_step_completed' ? 'completed' : 'failed', out);
        return;
      case 'todo_update':
        this.setState(out, {
          checklist: { content: event.content, checked: event.checked, total: event.total },
        });
        return;
    }
  }

  /** The first state change is a snapshot; later ones are JSON Patch deltas of the changed keys. */
  private setState(out: AgUiEvent[], change: AgUiTandemState): void {
    if (!this.state) {
      this.state = change;
      out.push({ type: 'STATE_SNAPSHOT', snapshot: structuredClone(change) });
      return;
    }
    const delta: AgUiPatchOp[] = [];
    for (const [key, value] of Object.entries(change) as [keyof AgUiTandemState, unknown][]) {
      delta.push({ op: this.state[key] ? 'replace' : 'add', path: `/${key}`, value: structuredClone(value) });
    }
    Object.assign(this.state, change);
    out.push({ type: 'STATE_DELTA', delta });
  }

  private stepStatus(stepId: string, status: string, out: AgUiEvent[]): void {
    const index = this.state?.plan?.steps.findIndex((s) => s.id === stepId) ?? -1;
    if (index < 0) return;
    this.state!.plan!.steps[index]!.status = status;
    out.push({
      type: 'STATE_DELTA',
      delta: [{ op: 'replace', path: `/plan/steps/${index}/status`, value: status }],
    });
  }

  private openText(event: TandemEvent, out: AgUiEvent[]): void {
    const key = keyOf(event);
    if (this.text?.key === key) return;
    this.closeText(out);
    this.text = { id: `msg-${event.runId}-${event.seq}`, key };
    out.push({ type: 'TEXT_MESSAGE_START', messageId: this.text.id, role: 'assistant' });
  }

  private openReasoning(event: TandemEvent, out: AgUiEvent[]): void {
    const key = keyOf(event);
    if (this.reasoning?.key === key) return;
    this.closeReasoning(out);
    const id = `reasoning-${event.runId}-${event.seq}`;
    this.reasoning = { id, key };
    out.push({ type: 'REASONING_START', messageId: id });
    out.push({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning' });
  }

  private closeText(out: AgUiEvent[]): void {
    if (!this.text) return;
    out.push({ type: 'TEXT_MESSAGE_END', messageId: this.text.id });
    this.text = undefined;
  }

  private closeReasoning(out: AgUiEvent[]): void {
    if (!this.reasoning) return;
    out.push({ type: 'REASONING_MESSAGE_END', messageId: this.reasoning.id });
    out.push({ type: 'REASONING_END', messageId: this.reasoning.id });
    this.reasoning = undefined;
  }

  private closeAll(out: AgUiEvent[]): void {
    this.closeReasoning(out);
    this.closeText(out);
  }
}

/** Concurrent plan steps stream text of their own: one message per agent and step. */
function keyOf(event: TandemEvent): string {
  return `${event.agent ?? ''}/${event.stepId ?? ''}/${event.parentId ?? ''}`;
}

function copy(steps: PlanStepView[]): NonNullable<AgUiTandemState['plan']>['steps'] {
  return steps.map((s) => ({
    id: s.id,
    description: s.description,
    dependsOn: [...s.dependsOn],
    status: s.status,
  }));
}
