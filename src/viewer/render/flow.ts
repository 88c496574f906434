/**
 * How the run went, beside the plan: stages, routing and handoffs,
 * guardrail findings, retries, fallbacks, compressions and the budget.
 * @module
 */
import type { RunProgress } from '../../state/progress-types.js';
import { h } from './dom.js';
import { count, duration } from './format.js';

/** The flow section. */
export function renderFlow(progress: RunProgress): HTMLElement {
  const { routing, handoffs, guardrails, retries, fallbacks, compressions, budget } = progress;
  return h(
    'section',
    { class: 'tv-card tv-flow' },
    h('h2', null, 'Flow'),
    list(
      'Stages',
      progress.stages.map((s) =>
        item({
          tone: `tv-status-${s.status}`,
          what: `${s.agent ? `${s.agent} · ` : ''}${s.name}`,
          state:
            s.status === 'running'
              ? 'running'
              : `${s.status} · ${duration((s.endedAt ?? s.startedAt) - s.startedAt)}`,
          detail: s.detail,
        }),
      ),
    ),
    routing
      ? list('Routing', [
          item({
            tone: routing.lowConfidence ? 'tv-warn' : '',
            what: `→ ${routing.agent}`,
            state: `${routing.method} · confidence ${routing.confidence.toFixed(2)}${routing.complexity ? ` · ${routing.complexity}` : ''}`,
            detail: routing.message ?? routing.reason,
          }),
        ])
      : null,
    list(
      'Handoffs',
      handoffs.map((x) =>
        item({
          tone: x.accepted ? '' : 'tv-warn',
          what: `${x.from} → ${x.to}`,
          state: x.accepted ? 'accepted' : 'refused',
          detail: x.reason ?? x.task,
        }),
      ),
    ),
    list(
      'Guardrails',
      guardrails.map((g) =>
        item({
          tone: g.blocked ? 'tv-bad' : 'tv-warn',
          what: `${g.stage} · ${g.rule}`,
          state: g.blocked ? 'blocked' : g.action,
          detail: g.reason,
        }),
      ),
    ),
    list(
      'Retries',
      retries.map((r) =>
        item({
          tone: 'tv-warn',
          what: `${r.model} · attempt ${r.attempt}`,
          state: `after ${duration(r.delayMs)}`,
          detail: `${r.error.kind}: ${r.error.message}`,
        }),
      ),
    ),
    list(
      'Fallbacks',
      fallbacks.map((f) =>
        item({ tone: 'tv-warn', what: `${f.from} → ${f.to}`, state: f.error.kind, detail: f.error.message }),
      ),
    ),
    list(
      'Compressions',
      compressions.map((c) =>
        item({
          tone: '',
          what: c.method,
          state: `${count(c.tokensBefore)} → ${count(c.tokensAfter)} tokens`,
          detail: c.reason,
        }),
      ),
    ),
    budget
      ? list('Budget', [
          item({
            tone: budget.action === 'stop' ? 'tv-bad' : 'tv-warn',
            what: budget.resource,
            state: `${Math.round(budget.pressure * 100)}% used`,
            detail: `${count(budget.used)} of ${count(budget.limit)}${budget.action === 'stop' ? ' — the run was stopped' : ''}`,
          }),
        ])
      : null,
  );
}

function list(title: string, items: HTMLElement[]): HTMLElement | null {
  if (items.length === 0) return null;
  return h(
    'div',
    { class: 'tv-list', attrs: { 'data-list': title.toLowerCase() } },
    h('h3', null, title),
    h('ul', null, items),
  );
}

/** One row of a flow list: its tone class, what happened, its state, and an optional detail line. */
interface FlowItem {
  tone: string;
  what: string;
  state: string;
  detail?: string | undefined;
}

function item({ tone, what, state, detail }: FlowItem): HTMLElement {
  return h(
    'li',
    { class: tone },
    h('span', { class: 'tv-what' }, what),
    h('span', { class: 'tv-time' }, state),
    detail ? h('p', { class: 'tv-muted' }, detail) : null,
  );
}
