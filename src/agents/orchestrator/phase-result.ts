/**
 * What the phases of a run answer with.
 * @module
 */
import type { OrchestratorResult } from './options.js';

/**
 * A run's result but the usage, which is the run's total: `orchestrator.ts`
 * adds it once, when the run ends, so no phase makes a placeholder for it.
 */
export type PhaseResult = Omit<OrchestratorResult, 'usage'>;
