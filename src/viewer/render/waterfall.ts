/**
 * The timing waterfall: one bar per model call and tool call on the run's
 * time axis. A tool bar spans its call to its result; a model bar spans
 * from the agent's previous activity (its step's start, a tool result, its
 * previous call) to the call's `usage` event, the only times the events
 * carry. Bars are placed through the CSSOM (`style.left`), which a strict
 * Content-Security-Policy allows.
 * @module
 */
import type { ViewerState } from '../model.js';
import { h } from './dom.js';
import { count, duration } from './format.js';

interface Bar {
  kind: 'model' | 'tool';
  label: string;
  detail: string;
  start: number;
  end: number;
  running: boolean;
  failed: boolean;
}

/** Rows drawn at most: the latest ones. */
const MAX_ROWS = 150;

/** The waterfall section, or nothing before the first call. */
export function renderWaterfall(state: ViewerState): HTMLElement | null {
  const { progress } = state;
  const now = progress.endedAt ?? progress.updatedAt ?? 0;
  const bars: Bar[] = [
    ...state.modelCalls.map((c) => ({
      kind: 'model' as const,
      label: c.model,
      detail: `${[c.agent, c.stepId].filter(Boolean).join(' · ')}${c.tokens ? ` · ${count(c.tokens)} tokens` : ''}`,
      start: c.startedAt,
      end: c.endedAt,
      running: false,
      failed: false,
    })),
    ...progress.tools.map((t) => ({
      kind: 'tool' as const,
      label: t.name,
      detail: [t.agent, t.stepId].filter(Boolean).join(' · '),
      start: t.startedAt,
      end: t.endedAt ?? now,
      running: t.status === 'running',
      failed: t.status === 'failed',
    })),
  ]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .slice(-MAX_ROWS);
  if (bars.length === 0) return null;
  const from = Math.min(progress.startedAt ?? bars[0]!.start, bars[0]!.start);
  const to = Math.max(now, ...bars.map((b) => b.end));
  const span = Math.max(1, to - from);
  return h(
    'section',
    { class: 'tv-card tv-waterfall' },
    h('h2', null, 'Timing', h('span', { class: 'tv-count' }, duration(to - from))),
    h(
      'div',
      { class: 'tv-wf' },
      bars.map((bar) => row(bar, from, span)),
    ),
  );
}

function row(bar: Bar, from: number, span: number): HTMLElement {
  const fill = h('span', {
    class: `tv-bar tv-bar-${bar.kind}${bar.running ? ' tv-running' : ''}${bar.failed ? ' tv-failed' : ''}`,
  });
  fill.style.left = `${((bar.start - from) / span) * 100}%`;
  fill.style.width = `${Math.max(0.4, ((bar.end - bar.start) / span) * 100)}%`;
  return h(
    'div',
    { class: 'tv-wf-row', attrs: { 'data-kind': bar.kind } },
    h(
      'span',
      { class: 'tv-wf-label' },
      h('span', { class: `tv-kind tv-kind-${bar.kind}` }, bar.kind),
      ` ${bar.label}`,
    ),
    h('span', { class: 'tv-wf-track', attrs: { title: bar.detail } }, fill),
    h('span', { class: 'tv-time' }, bar.running ? 'running' : duration(bar.end - bar.start)),
  );
}
