/**
 * A run that fails says why in its saved state: `load()` and the viewer's
 * replay of that state show the error, not only "failed".
 */
import { describe, expect, it } from 'vitest';
import { MemoryCheckpointStore, ModelError, Orchestrator, type RunState } from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';
import { viewerStateFromRunState } from '../../src/viewer/index.js';

function failing(store: MemoryCheckpointStore<RunState>) {
  return new Orchestrator({
    models: {
      planner: new ScriptedModel([{ text: '{"needsPlan": false, "reasoning": "one call"}' }]),
      executor: new ScriptedModel([
        { error: new ModelError('auth', 'Invalid API key for scripted:executor') },
      ]),
      verifier: false,
    },
    planning: { classify: 'llm' },
    checkpoints: { store },
    runtime: testRuntime(),
  });
}

describe('the saved state of a failed run', () => {
  it('holds the kind and message of the error the run ended with', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    const run = failing(store).run('Answer');
    const { status, error } = await run.result;
    expect(status).toBe('failed');
    expect(error).toBeDefined();
    const state = (await store.load(run.runId))!;
    expect(state.status).toBe('failed');
    expect(state.error).toEqual({ kind: error!.kind, message: error!.message });
    expect(state.error?.message).toMatch(/Invalid API key/);
    expect(run.state().error).toEqual(state.error);
  });

  it('is replayed by the viewer with the reason', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    const run = failing(store).run('Answer');
    await run.result.catch(() => undefined);
    const { progress } = viewerStateFromRunState((await store.load(run.runId))!);
    expect(progress.status).toBe('failed');
    expect(progress.outcome).toBe('failed');
    expect(progress.error?.message).toMatch(/Invalid API key/);
  });

  it('loses the error once a resume runs it again', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    const run = failing(store).run('Answer');
    await run.result.catch(() => undefined);
    const resumer = new Orchestrator({
      models: {
        planner: new ScriptedModel([]),
        executor: new ScriptedModel([{ text: 'answered' }]),
        verifier: false,
      },
      checkpoints: { store },
      runtime: testRuntime(),
    });
    await expect(resumer.resume((await store.load(run.runId))!).result).resolves.toMatchObject({
      output: 'answered',
    });
    const state = (await store.load(run.runId))!;
    expect(state.status).toBe('completed');
    expect(state.error).toBeUndefined();
  });
});
