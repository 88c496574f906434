/**
 * The run's header (task, state, stage, time, tokens and cost, connection)
 * and its outcome (the final answer, or why it failed).
 * @module
 */
import type { RunProgress } from '../../state/progress-types.js';
import { h } from './dom.js';
import { duration, usageLine } from './format.js';

/** Where the events come from and how the connection is. */
export interface SourceInfo {
  /** `live · 120 events`, `replay of a saved state`, … */
  label: string;
  tone: 'ok' | 'warn' | 'bad' | '';
}

/** The header. */
export function renderHeader(progress: RunProgress, source: SourceInfo): HTMLElement {
  const status = progress.status === 'completed' && progress.outcome ? progress.outcome : progress.status;
  const elapsed =
    progress.startedAt === undefined
      ? undefined
      : (progress.endedAt ?? progress.updatedAt ?? progress.startedAt) - progress.startedAt;
  return h(
    'header',
    { class: 'tv-head' },
    h(
      'h1',
      { class: 'tv-task' },
      progress.input ? clip(progress.input, 240) : progress.runId || 'Waiting for the run…',
    ),
    h(
      'div',
      { class: 'tv-facts' },
      h('span', { class: `tv-badge tv-status-${status}` }, status),
      progress.currentStage ? h('span', { class: 'tv-chip' }, progress.currentStage) : null,
      h('span', { class: 'tv-fact' }, duration(elapsed)),
      h('span', { class: 'tv-fact tv-usage' }, `tokens ${usageLine(progress.usage)}`),
      h('span', { class: `tv-fact tv-source tv-${source.tone}` }, source.label),
    ),
    progress.runId ? h('p', { class: 'tv-muted tv-run-id' }, progress.runId) : null,
  );
}

/** The outcome: the final answer, the error, or nothing while the run goes on. */
export function renderOutcome(progress: RunProgress): HTMLElement | null {
  if (progress.error) {
    return h(
      'section',
      { class: 'tv-card tv-outcome tv-failed' },
      h('h2', null, 'The run failed'),
      h('p', { class: 'tv-error' }, `${progress.error.kind}: ${progress.error.message}`),
    );
  }
  if (progress.output === undefined) return null;
  return h(
    'section',
    { class: 'tv-card tv-outcome' },
    h(
      'h2',
      null,
      'Final answer',
      progress.outcome
        ? h('span', { class: `tv-badge tv-status-${progress.outcome}` }, progress.outcome)
        : null,
    ),
    h('div', { class: 'tv-answer' }, progress.output),
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
