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
        item(
          `tv-status-${s.status}`,
          `${s.agent ? `${s.agent} · ` : ''}${s.name}`,
          s.status === 'running'
            ? 'running'
            : `${s.status} · ${duration((s.endedAt ?? s.startedAt) - s.startedAt)}`,
          s.detail,
        ),
      ),
    ),
    routing
      ? list('Routing', [
          item(
            routing.lowConfidence ? 'tv-warn' : '',
            `→ ${routing.agent}`,
            `${routing.method} · confidence ${routing.confidence.toFixed(2)}${routing.complexity ? ` · ${routing.complexity}` : ''}`,
            routing.message ?? routing.reason,
          ),
        ])
      : null,
    list(
      'Handoffs',
      handoffs.map((x) =>
        item(
          x.accepted ? '' : 'tv-warn',
          `${x.from} → ${x.to}`,
          x.accepted ? 'accepted' : 'refused',
          x.reason ?? x.task,
        ),
      ),
    ),
    list(
      'Guardrails',
      guardrails.map((g) =>
        item(
          g.blocked ? 'tv-bad' : 'tv-warn',
          `${g.stage} · ${g.rule}`,
          g.blocked ? 'blocked' : g.action,
          g.reason,
        ),
      ),
    ),
    list(
      'Retries',
      retries.map((r) =>
        item(
          'tv-warn',
          `${r.model} · attempt ${r.attempt}`,
          `after ${duration(r.delayMs)}`,
          `${r.error.kind}: ${r.error.message}`,
        ),
      ),
    ),
    list(
      'Fallbacks',
      fallbacks.map((f) => item('tv-warn', `${f.from} → ${f.to}`, f.error.kind, f.error.message)),
    ),
    list(
      'Compressions',
      compressions.map((c) =>
        item('', c.method, `${count(c.tokensBefore)} → ${count(c.tokensAfter)} tokens`, c.reason),
      ),
    ),
    budget
      ? list('Budget', [
          item(
            budget.action === 'stop' ? 'tv-bad' : 'tv-warn',
            budget.resource,
            `${Math.round(budget.pressure * 100)}% used`,
            `${count(budget.used)} of ${count(budget.limit)}${budget.action === 'stop' ? ' — the run was stopped' : ''}`,
          ),
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

function item(tone: string, what: string, state: string, detail?: string): HTMLElement {
  return h(
    'li',
    { class: tone },
    h('span', { class: 'tv-what' }, what),
    h('span', { class: 'tv-time' }, state),
    detail ? h('p', { class: 'tv-muted' }, detail) : null,
  );
}
