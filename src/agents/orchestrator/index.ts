/**
 * The orchestrator: the `Orchestrator` and one file per phase of a run —
 * classify, plan, dispatch in dependency order, the escalation ladder,
 * verify, re-plan, finalize — with the checklist, run recording and step jobs.
 * @module
 */
export { classifyTask, type TaskClassification } from './classify.js';
export type { OrchestrationParts } from './collaborators.js';
export * from './dispatch.js';
export { runStepLadder, type StepLadderDeps } from './escalation-ladder.js';
export {
  FINALIZE_SYSTEM_PROMPT,
  finalizeAnswer,
  findingsText,
  joinFindings,
} from './finalize.js';
export * from './flow.js';
export * from './option-groups.js';
export * from './options.js';
export * from './orchestrator.js';
export * from './planned-run.js';
export * from './run-recorder.js';
export * from './run-step-job.js';
export * from './stage-events.js';
export * from './step-job.js';
export * from './step-prompt.js';
export * from './step-result.js';
export {
  activeTaskContext,
  MemoryTodoStore,
  renderTodo,
  SandboxTodoStore,
  TODO_CONTEXT_CAP,
  TODO_STORE_CAP,
  type TodoStore,
  todoProgress,
} from './todo-checklist.js';
export {
  parseVerdict,
  VERIFY_JSON_SYSTEM_PROMPT,
  VERIFY_SYSTEM_PROMPT,
  type Verdict,
  type Verification,
  type VerifiedStep,
  verifyResults,
} from './verify.js';
