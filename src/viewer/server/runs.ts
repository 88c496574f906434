/**
 * The runs a viewer handler shows: live runs it follows, recorded event logs
 * and saved states, each with its answer token and, for a live run, its
 * interrupt bus. Bounded: past `maxRuns` the oldest ended run is forgotten
 * (a running one never is).
 * @module
 */
import type { TandemEvent } from '../../core/events.js';
import type { IdGenerator } from '../../core/seams.js';
import type { InterruptBus } from '../../safety/approvals/interrupt-bus.js';
import type { RunState } from '../../state/run-state.js';
import { ViewerError } from '../errors.js';
import type { RunDetails, RunSummary } from '../protocol.js';
import { RunLog } from './run-log.js';

/** One run the handler shows. */
export interface RunEntry {
  runId: string;
  title: string;
  source: RunSummary['source'];
  status: RunSummary['status'];
  token: string;
  bus?: InterruptBus;
  /** The events (live runs and logs). */
  log?: RunLog;
  /** The saved state (`source: 'state'`). */
  state?: RunState;
  startedAt?: number;
  endedAt?: number;
  /** Ids of the questions asked and not answered yet. */
  pending: Set<string>;
  /** Stops following a live run. */
  detach?: () => void;
}

/** Anything that emits a run's events: a `Run` or an `EventBus`. */
export interface TrackableRun {
  readonly runId: string;
  on(type: '*', listener: (event: TandemEvent) => void): unknown;
  off(type: '*', listener: (event: TandemEvent) => void): unknown;
}

/** A run the handler shows. */
export interface ShownRun {
  runId: string;
  /** The run's answer token, for a page of your own that answers its questions. */
  token: string;
}

type NewEntry = Pick<RunEntry, 'runId' | 'title' | 'source' | 'status' | 'bus' | 'state'>;

/** The handler's runs, oldest first. */
export class RunRegistry {
  private readonly entries = new Map<string, RunEntry>();

  constructor(private readonly limits: { maxRuns: number; maxEvents: number; ids: IdGenerator }) {}

  get(runId: string): RunEntry | undefined {
    return this.entries.get(runId);
  }

  /** Summaries, newest first. */
  list(): RunSummary[] {
    return [...this.entries.values()].reverse().map((e) => summaryOf(e));
  }

  /** Follows `run`'s events from now until its terminal event. */
  track(run: TrackableRun, options: { title?: string; bus?: InterruptBus }): ShownRun {
    const entry = this.add({
      runId: run.runId,
      title: options.title ?? run.runId,
      source: 'live',
      status: 'running',
      bus: options.bus,
    });
    const listener = (event: TandemEvent) => {
      if (options.title === undefined && event.type === 'run_started') entry.title = event.input;
      record(entry, event);
      if (entry.log?.ended) run.off('*', listener);
    };
    run.on('*', listener);
    entry.detach = () => run.off('*', listener);
    return shown(entry);
  }

  /** Adds a recorded run; its title is its task, from `run_started`. */
  addLog(events: TandemEvent[], title?: string): ShownRun {
    const first = events[0];
    if (!first) throw new ViewerError('invalid_log', 'An event log needs at least one event');
    const started = events.find((e) => e.type === 'run_started');
    const entry = this.add({
      runId: first.runId,
      title: title ?? (started?.type === 'run_started' ? started.input : first.runId),
      source: 'log',
      status: 'running',
    });
    for (const event of events) record(entry, event);
    entry.log?.close();
    return shown(entry);
  }

  /** Adds a saved state; its questions count as pending. */
  addState(state: RunState, title?: string): ShownRun {
    if (typeof state?.runId !== 'string' || typeof state.task !== 'string') {
      throw new ViewerError('invalid_state', 'Not a run state: needs runId and task');
    }
    const entry = this.add({
      runId: state.runId,
      title: title ?? state.task,
      source: 'state',
      status: state.status,
      state,
    });
    entry.endedAt = state.updatedAt;
    for (const interrupt of state.interrupts ?? []) entry.pending.add(interrupt.id);
    return shown(entry);
  }

  /** Forgets a run: stops following it and ends its readers. */
  remove(runId: string): boolean {
    const entry = this.entries.get(runId);
    if (!entry) return false;
    entry.detach?.();
    entry.log?.close();
    return this.entries.delete(runId);
  }

  /** @throws ViewerError `duplicate_run` when the id is shown already. */
  private add(init: NewEntry): RunEntry {
    if (this.entries.has(init.runId)) {
      throw new ViewerError('duplicate_run', `Run ${init.runId} is already shown; remove it first`);
    }
    const entry: RunEntry = { ...init, token: this.limits.ids.next('vt'), pending: new Set() };
    if (init.source !== 'state') entry.log = new RunLog(this.limits.maxEvents);
    this.entries.set(init.runId, entry);
    this.evict();
    return entry;
  }

  private evict(): void {
    for (const entry of this.entries.values()) {
      if (this.entries.size <= this.limits.maxRuns) return;
      if (entry.status !== 'running') this.remove(entry.runId);
    }
  }
}

function shown(entry: RunEntry): ShownRun {
  return { runId: entry.runId, token: entry.token };
}

/** Records an event: in the log, and in the summary's status, times and pending questions. */
export function record(entry: RunEntry, event: TandemEvent): void {
  entry.log?.push(event);
  entry.startedAt ??= event.at;
  switch (event.type) {
    case 'interrupt':
      entry.pending.add(event.interrupt.id);
      break;
    case 'interrupt_response':
      entry.pending.delete(event.interruptId);
      break;
    case 'complete':
      // A run waiting for answers resolves `interrupted`: paused, not done; a failed one resolves too.
      entry.status =
        event.status === 'interrupted' ? 'paused' : event.status === 'failed' ? 'failed' : 'completed';
      entry.endedAt = event.at;
      break;
    case 'error':
      entry.status = event.error.kind === 'interrupted' ? 'paused' : 'failed';
      entry.endedAt = event.at;
      break;
    default:
  }
}

/** The summary of an entry. */
export function summaryOf(entry: RunEntry): RunSummary {
  const summary: RunSummary = {
    runId: entry.runId,
    title: entry.title,
    source: entry.source,
    status: entry.status,
    events: entry.log?.size ?? 0,
    pending: entry.pending.size,
  };
  if (entry.startedAt !== undefined) summary.startedAt = entry.startedAt;
  if (entry.endedAt !== undefined) summary.endedAt = entry.endedAt;
  return summary;
}

/** The details of an entry; the token only when its questions can be answered here. */
export function detailsOf(entry: RunEntry): RunDetails {
  const details: RunDetails = summaryOf(entry);
  if (entry.bus && entry.source === 'live') details.token = entry.token;
  return details;
}
