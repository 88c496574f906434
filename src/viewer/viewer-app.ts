/**
 * `<tandem-viewer api="/api">`: the page the viewer handler serves — the run
 * list (refreshed every few seconds), the selected run (`#run=<id>` in the
 * address, so a run has a link), and a file picker that replays a saved
 * state or an event log locally, without uploading it.
 * @module
 */
import type { RunState } from '../state/run-state.js';
import type { RunDetails, RunSummary } from './protocol.js';
import { h, replace } from './render/dom.js';
import { duration } from './render/format.js';
import { parseEventLog } from './replay.js';
import { RUN_ENDED, type RunViewerElement } from './run-viewer.js';

const Base = ((globalThis as { HTMLElement?: typeof HTMLElement }).HTMLElement ??
  class {}) as typeof HTMLElement;

const REFRESH_MS = 2_000;

/** The `<tandem-viewer>` element. */
export class ViewerAppElement extends Base {
  private list = h('ul', { class: 'tv-runs' });
  private main = h('main', { class: 'tv-app-main' });
  private runs: RunSummary[] = [];
  private selected?: string;
  private timer = 0;
  private readonly onHash = () => void this.select(runFromHash());

  connectedCallback(): void {
    const picker = h('input', {
      class: 'tv-file',
      attrs: { type: 'file', accept: '.json,.jsonl,.ndjson,application/json' },
    });
    picker.addEventListener('change', () => void this.openFile(picker));
    replace(
      this,
      h(
        'div',
        { class: 'tv-app' },
        h(
          'aside',
          { class: 'tv-app-side' },
          h('h2', null, 'Runs'),
          this.list,
          h('label', { class: 'tv-open' }, 'Replay a saved state or event log ', picker),
        ),
        this.main,
      ),
    );
    addEventListener('hashchange', this.onHash);
    this.addEventListener(RUN_ENDED, () => void this.refresh());
    void this.refresh(true);
    void this.select(runFromHash());
  }

  disconnectedCallback(): void {
    removeEventListener('hashchange', this.onHash);
    clearTimeout(this.timer);
  }

  private api(path: string): string {
    return `${(this.getAttribute('api') ?? 'api').replace(/\/$/, '')}${path}`;
  }

  private async refresh(first = false): Promise<void> {
    clearTimeout(this.timer);
    const body = await getJson<{ runs: RunSummary[] }>(this.api('/runs'));
    if (body) {
      this.runs = body.runs;
      this.drawList();
      // Only on the first load: later, no selection means the user is replaying a file.
      if (first && this.selected === undefined && this.runs[0]) {
        location.hash = `run=${encodeURIComponent(this.runs[0].runId)}`;
      }
    }
    if (this.isConnected) this.timer = window.setTimeout(() => void this.refresh(), REFRESH_MS);
  }

  private drawList(): void {
    replace(
      this.list,
      this.runs.length === 0 ? h('li', { class: 'tv-empty' }, 'No runs yet.') : null,
      this.runs.map((run) =>
        h(
          'li',
          { class: run.runId === this.selected ? 'tv-selected' : '' },
          h(
            'a',
            { attrs: { href: `#run=${encodeURIComponent(run.runId)}` } },
            h('span', { class: `tv-badge tv-status-${run.status}` }, run.status),
            run.pending ? h('span', { class: 'tv-badge tv-status-paused' }, `${run.pending} waiting`) : null,
            h('span', { class: 'tv-run-title' }, run.title),
            h(
              'span',
              { class: 'tv-time' },
              `${run.source}${run.startedAt && run.endedAt ? ` · ${duration(run.endedAt - run.startedAt)}` : ''}`,
            ),
          ),
        ),
      ),
    );
  }

  private async select(runId: string | undefined): Promise<void> {
    if (runId === undefined || runId === this.selected) return;
    this.selected = runId;
    this.drawList();
    const base = `/runs/${encodeURIComponent(runId)}`;
    const details = await getJson<RunDetails>(this.api(base));
    if (this.selected !== runId) return;
    if (!details) {
      replace(this.main, h('p', { class: 'tv-error' }, `Run ${runId} is not known to this server.`));
      return;
    }
    const view = document.createElement('tandem-run-viewer') as RunViewerElement;
    if (details.source === 'state') {
      replace(this.main, view);
      const state = await getJson<RunState>(this.api(`${base}/state`));
      if (state) view.runState = state;
      return;
    }
    if (details.token) {
      view.setAttribute('answer-url', this.api(`${base}/interrupts/`));
      view.setAttribute('token', details.token);
    }
    view.setAttribute('src', this.api(`${base}/events`));
    replace(this.main, view);
  }

  private async openFile(picker: HTMLInputElement): Promise<void> {
    const file = picker.files?.[0];
    if (!file) return;
    const text = await file.text();
    const view = document.createElement('tandem-run-viewer') as RunViewerElement;
    this.selected = undefined;
    history.replaceState(null, '', location.pathname + location.search);
    this.drawList();
    replace(this.main, view);
    try {
      const saved = savedStateIn(text);
      if (saved) view.runState = saved;
      else view.events = parseEventLog(text);
    } catch (error) {
      replace(this.main, h('p', { class: 'tv-error' }, `${file.name}: ${(error as Error).message}`));
    }
  }
}

/** The run state in a file: a state, or a checkpoint store's `{ format, runId, state }` envelope; else undefined (an event log). */
function savedStateIn(text: string): RunState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const inner = 'state' in value && 'format' in value ? (value as { state: unknown }).state : value;
  return typeof inner === 'object' && inner !== null && 'version' in inner ? (inner as RunState) : undefined;
}

function runFromHash(): string | undefined {
  const match = /(?:^#|&)run=([^&]+)/.exec(location.hash);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

async function getJson<T>(url: string): Promise<T | undefined> {
  try {
    const response = await fetch(url, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}
