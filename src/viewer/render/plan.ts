/**
 * The plan as a graph: steps in levels by their dependencies (a step sits
 * one level below the deepest step it waits for), each with its state, its
 * attempts and their mode, its output or its last failure.
 * @module
 */
import type { EventPayloads } from '../../core/events.js';
import type { PlanProgress, StepProgress } from '../../state/progress-types.js';
import type { RenderContext } from './context.js';
import { h } from './dom.js';
import { count } from './format.js';
import { longText } from './long-text.js';

const MODE_LABEL: Record<NonNullable<StepProgress['mode']>, string> = {
  normal: 'normal',
  enhanced: 'enhanced instructions',
  takeover: 'planner takeover',
};

/** The plan section; a note when the run has no plan (yet). */
export function renderPlan(
  plan: PlanProgress | undefined,
  todo: EventPayloads['todo_update'] | undefined,
  ctx: RenderContext,
): HTMLElement {
  if (!plan)
    return h(
      'section',
      { class: 'tv-card tv-plan' },
      h('h2', null, 'Plan'),
      h('p', { class: 'tv-empty' }, 'No plan: the run answers directly, or has not planned yet.'),
    );
  const levels = levelsOf(plan.steps);
  return h(
    'section',
    { class: 'tv-card tv-plan' },
    h(
      'h2',
      null,
      'Plan',
      h('span', { class: 'tv-count' }, `${plan.completed}/${plan.total} done`),
      plan.revision > 0 ? h('span', { class: 'tv-chip' }, `revision ${plan.revision}`) : null,
    ),
    plan.title ? h('p', { class: 'tv-plan-title' }, plan.title) : null,
    plan.summary ? h('p', { class: 'tv-muted' }, plan.summary) : null,
    h(
      'ol',
      { class: 'tv-levels' },
      levels.map((steps) =>
        h(
          'li',
          { class: 'tv-level' },
          steps.map((s) => renderStep(s, ctx)),
        ),
      ),
    ),
    todo ? h('p', { class: 'tv-muted' }, `Checklist: ${todo.checked}/${todo.total} checked`) : null,
  );
}

function renderStep(step: StepProgress, ctx: RenderContext): HTMLElement {
  const attempt =
    step.attempts > 0 ? `attempt ${step.attempts}${step.mode ? ` · ${MODE_LABEL[step.mode]}` : ''}` : '';
  return h(
    'article',
    { class: `tv-step tv-status-${step.status}`, attrs: { 'data-step': step.id } },
    h(
      'div',
      { class: 'tv-step-head' },
      h('span', { class: 'tv-step-id' }, step.id),
      h('span', { class: `tv-badge tv-status-${step.status}` }, step.status),
      attempt ? h('span', { class: `tv-chip tv-mode-${step.mode ?? 'normal'}` }, attempt) : null,
    ),
    h('p', { class: 'tv-step-desc' }, step.description),
    step.dependsOn.length ? h('p', { class: 'tv-muted' }, `after ${step.dependsOn.join(', ')}`) : null,
    step.usage && step.usage.inputTokens + step.usage.outputTokens > 0
      ? h('p', { class: 'tv-muted' }, `${count(step.usage.inputTokens + step.usage.outputTokens)} tokens`)
      : null,
    step.error
      ? h(
          'p',
          { class: 'tv-error' },
          `${step.status === 'completed' ? 'Recovered from: ' : ''}${step.error.message}`,
        )
      : null,
    step.output ? longText({ key: `step:${step.id}`, text: step.output, limit: 280 }, ctx) : null,
  );
}

/** Steps grouped by depth; a dependency outside the plan or in a cycle counts as none. */
function levelsOf(steps: readonly StepProgress[]): StepProgress[][] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (step: StepProgress): number => {
    const known = depth.get(step.id);
    if (known !== undefined) return known;
    if (visiting.has(step.id)) return 0;
    visiting.add(step.id);
    let d = 0;
    for (const id of step.dependsOn) {
      const dep = byId.get(id);
      if (dep) d = Math.max(d, depthOf(dep) + 1);
    }
    visiting.delete(step.id);
    depth.set(step.id, d);
    return d;
  };
  const levels: StepProgress[][] = [];
  for (const step of steps) (levels[depthOf(step)] ??= []).push(step);
  return levels.filter(Boolean);
}
