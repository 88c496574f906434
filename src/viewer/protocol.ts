/**
 * What the viewer handler's JSON routes send, shared by the handler and the
 * page so the two cannot drift apart.
 * @module
 */

/** A run as the run list gives it. */
export interface RunSummary {
  runId: string;
  title: string;
  /** `live`: tracked as it runs; `log`: a recorded event log; `state`: a saved run state. */
  source: 'live' | 'log' | 'state';
  /** `paused`: ended `interrupted` (or with an `interrupted` error), waiting to be resumed. */
  status: 'running' | 'paused' | 'completed' | 'failed';
  startedAt?: number;
  endedAt?: number;
  /** Events the handler holds for it. */
  events: number;
  /** Questions waiting for an answer. */
  pending: number;
}

/** `GET …/runs/:id`: the summary, and the token that answers the run's questions when the handler gives one. */
export interface RunDetails extends RunSummary {
  token?: string;
}

/** The body of every error response. */
export interface ErrorBody {
  error: { kind: string; message: string };
}

/** The header that carries a run's answer token. */
export const TOKEN_HEADER = 'x-tandem-token';
