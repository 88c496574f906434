/**
 * A self-contained HTML report of a run: no script, no external resource,
 * every piece of model or user text escaped so it shows as text and never as
 * markup; a Content-Security-Policy forbids scripts even if some got in.
 * @module
 */
import type { TandemEvent } from '../../core/events.js';
import type { CaseResult, EvalResults, TrialResult } from '../types.js';
import { fmt } from './compare.js';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` with every character HTML gives meaning to escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

function shown(value: unknown): string {
  return escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'undefined'));
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1d232a;background:#fafafa}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#eef1f4}details{background:#fff;border:1px solid #d0d7de;border-radius:6px;margin:.5rem 0;padding:.4rem .8rem}
summary{cursor:pointer;font-weight:600}pre{white-space:pre-wrap;word-break:break-word;background:#f3f4f6;padding:.5rem;border-radius:4px;max-height:24rem;overflow:auto}
.pass{color:#1a7f37}.fail{color:#cf222e}.muted{color:#656d76}`;

/** One line describing an event in the trace. */
function eventLine(event: TandemEvent): string {
  const e = event as TandemEvent & Record<string, unknown>;
  switch (event.type) {
    case 'tool_call':
      return `${e.name}(${JSON.stringify(e.args)})`;
    case 'tool_result':
      return `${e.name}${e.isError ? ' ✗' : ''}: ${String(e.output ?? '').slice(0, 200)}`;
    case 'stage':
      return `${e.name} ${e.status}`;
    case 'plan_overview':
    case 'plan_revised':
      return (e.steps as { id: string; description: string }[])
        .map((s) => `${s.id}: ${s.description}`)
        .join(' · ');
    case 'plan_step_started':
      return `attempt ${e.attempt}: ${(e.step as { description: string }).description}`;
    case 'complete':
      return `${e.status}: ${String(e.output).slice(0, 200)}`;
    case 'error':
      return `${(e.error as { kind: string }).kind}: ${(e.error as { message: string }).message}`;
    default:
      return '';
  }
}

const QUIET = new Set(['token', 'reasoning', 'partial_object', 'usage']);

function trace(events: readonly TandemEvent[]): string {
  const rows = events
    .filter((e) => !QUIET.has(e.type))
    .map(
      (e) =>
        `<tr><td>${e.seq}</td><td>${escapeHtml(e.type)}</td><td>${escapeHtml(e.stepId ?? e.agent ?? '')}</td><td>${escapeHtml(eventLine(e))}</td></tr>`,
    );
  if (!rows.length) return '<p class="muted">no events recorded</p>';
  return `<table><tr><th>#</th><th>event</th><th>step / agent</th><th>detail</th></tr>${rows.join('')}</table>`;
}

function trialHtml(trial: TrialResult, index: number): string {
  const scores = Object.entries(trial.scores)
    .map(
      ([name, s]) =>
        `<tr><td>${escapeHtml(name)}</td><td>${fmt(s.score)}</td><td>${escapeHtml(s.reason)}</td></tr>`,
    )
    .join('');
  const usage = trial.usage ? `, ${trial.usage.inputTokens}/${trial.usage.outputTokens} tokens in/out` : '';
  const error = trial.error
    ? `<p class="fail">${escapeHtml(`${trial.error.kind}: ${trial.error.message}`)}</p>`
    : '';
  return `<h4>Trial ${index + 1} <span class="muted">${trial.latencyMs} ms${usage}${trial.status ? `, ${escapeHtml(trial.status)}` : ''}</span></h4>${error}
<pre>${shown(trial.output)}</pre><table><tr><th>scorer</th><th>score</th><th>reason</th></tr>${scores}</table>
<details><summary>Event trace (${trial.events.length})</summary>${trace(trial.events)}</details>`;
}

function caseHtml(c: CaseResult): string {
  const passed = Object.values(c.scores).every((s) => s.passAtK >= 1);
  const scores = Object.entries(c.scores)
    .map(([name, s]) => `${escapeHtml(name)} ${fmt(s.mean)}`)
    .join(' · ');
  const expected = c.expected === undefined ? '' : `<h4>Expected</h4><pre>${shown(c.expected)}</pre>`;
  return `<details><summary><span class="${passed ? 'pass' : 'fail'}">${passed ? '✓' : '✗'}</span> ${escapeHtml(c.id)} <span class="muted">${scores}</span></summary>
<h4>Input</h4><pre>${shown(c.input)}</pre>${expected}${c.trials.map(trialHtml).join('')}</details>`;
}

/** The report as one HTML document. */
export function htmlReport(results: EvalResults): string {
  const summary = Object.entries(results.summary)
    .map(
      ([name, s]) =>
        `<tr><td>${escapeHtml(name)}</td><td>${fmt(s.mean)}</td><td>${fmt(s.passRate)}</td></tr>`,
    )
    .join('');
  const title = `Eval: ${results.name}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p class="muted">Dataset ${escapeHtml(results.dataset.name)} · ${results.dataset.size} cases · sha256 ${results.dataset.hash.slice(0, 12)} · ${results.trials} trial(s) · ${results.durationMs} ms${results.aborted ? ` · <strong class="fail">aborted after ${results.cases.length} cases</strong>` : ''}</p>
<table><tr><th>scorer</th><th>mean</th><th>pass rate</th></tr>${summary}</table>
<h2>Cases</h2>
${results.cases.map(caseHtml).join('\n')}
</body></html>
`;
}
