/**
 * Questions waiting for a human: an approval shows the tool, its arguments
 * and its risk with Approve / Approve always / Deny; a decision its options
 * and Skip; an input a text field, Send and Skip. Answers go out through the
 * element's `answer` service (the handler's POST, to the run's interrupt
 * bus); the question leaves when the run's `interrupt_response` arrives.
 * @module
 */
import type { PendingInterrupt } from '../../state/progress-types.js';
import type { Answer, RenderContext } from './context.js';
import { h } from './dom.js';
import { duration, pretty } from './format.js';
import { longText } from './long-text.js';

/** The approvals section, or nothing while no question waits. */
export function renderApprovals(
  interrupts: readonly PendingInterrupt[],
  ctx: RenderContext,
): HTMLElement | null {
  if (interrupts.length === 0) return null;
  return h(
    'section',
    { class: 'tv-card tv-approvals', attrs: { 'aria-live': 'polite' } },
    h('h2', null, interrupts.length === 1 ? 'Waiting for you' : `Waiting for you (${interrupts.length})`),
    interrupts.map((interrupt) => renderInterrupt(interrupt, ctx)),
  );
}

/** The tool's risk: the view's `risk` field when it has one, else the "(risk: …)" the approval gate writes. */
export function riskOf(interrupt: PendingInterrupt): string | undefined {
  const field = (interrupt as { risk?: unknown }).risk;
  if (typeof field === 'string') return field;
  return /\(risk: (\w+)\)/.exec(interrupt.message ?? '')?.[1];
}

function renderInterrupt(interrupt: PendingInterrupt, ctx: RenderContext): HTMLElement {
  const risk = riskOf(interrupt);
  const status = h(
    'p',
    { class: 'tv-answer-status', attrs: { role: 'status' } },
    ctx.sent.get(interrupt.id) ?? '',
  );
  const controls = ctx.answer
    ? renderControls(interrupt, ctx, status)
    : h('p', { class: 'tv-note' }, 'This view cannot answer (no answer URL or token).');
  return h(
    'article',
    { class: `tv-interrupt tv-kind-${interrupt.kind}`, attrs: { 'data-interrupt': interrupt.id } },
    h(
      'div',
      { class: 'tv-step-head' },
      h('strong', null, interrupt.title),
      interrupt.toolName ? h('span', { class: 'tv-chip' }, interrupt.toolName) : null,
      risk ? h('span', { class: `tv-badge tv-risk-${risk}` }, `risk: ${risk}`) : null,
    ),
    interrupt.message ? h('p', null, interrupt.message) : null,
    interrupt.args !== undefined
      ? longText({ key: `ask:${interrupt.id}`, text: pretty(interrupt.args), limit: 1_500 }, ctx)
      : null,
    h(
      'p',
      { class: 'tv-muted' },
      `Without an answer in ${duration(interrupt.timeoutMs)}: ${interrupt.defaultAction}.`,
    ),
    controls,
    status,
  );
}

function renderControls(interrupt: PendingInterrupt, ctx: RenderContext, status: HTMLElement): HTMLElement {
  const buttons: HTMLButtonElement[] = [];
  const send = async (answer: Answer, label: string) => {
    for (const b of buttons) b.disabled = true;
    status.textContent = `Sending ${label}…`;
    const outcome = await ctx.answer!(interrupt, answer);
    const text = outcome.ok ? `Sent: ${label}.` : outcome.message;
    ctx.sent.set(interrupt.id, text);
    status.textContent = text;
    if (!outcome.ok) for (const b of buttons) b.disabled = false;
  };
  const button = (label: string, answer: () => Answer, kind = '') => {
    const b = h(
      'button',
      {
        class: `tv-button ${kind}`,
        attrs: { type: 'button', disabled: ctx.sent.has(interrupt.id) },
        on: { click: () => void send(answer(), label) },
      },
      label,
    );
    buttons.push(b);
    return b;
  };
  if (interrupt.kind === 'approval') {
    return h(
      'div',
      { class: 'tv-actions' },
      button('Approve', () => ({ action: 'approve' }), 'tv-primary'),
      button('Approve always', () => ({ action: 'approve_always' })),
      button('Deny', () => ({ action: 'deny' }), 'tv-danger'),
    );
  }
  if (interrupt.kind === 'decision') {
    return h(
      'div',
      { class: 'tv-actions' },
      (interrupt.options ?? []).map((option) => button(option, () => ({ action: 'select', value: option }))),
      button('Skip', () => ({ action: 'skip' })),
    );
  }
  const input = h('textarea', { class: 'tv-input', attrs: { rows: 2, 'aria-label': interrupt.title } });
  return h(
    'div',
    { class: 'tv-actions' },
    input,
    button('Send', () => ({ action: 'input', value: input.value }), 'tv-primary'),
    button('Skip', () => ({ action: 'skip' })),
  );
}
