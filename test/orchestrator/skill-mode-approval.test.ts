import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApprovalGate,
  createSkillTools,
  defineSkill,
  MemoryCheckpointStore,
  MemoryInterruptBus,
  Orchestrator,
  type OrchestratorOptions,
  RunError,
  type RunState,
  SkillRegistry,
  type TandemEvent,
} from '../../src/index.js';
import { ScriptedModel, testRuntime } from '../../src/testing/index.js';

/** A risky skill (deploys an app) and a record of its runs. */
function appSkills() {
  const built: string[] = [];
  const skills = new SkillRegistry().register(
    defineSkill({
      id: 'app_builder',
      description: 'Build and deploy an app',
      category: 'apps',
      risk: 'risky',
      parameters: z.object({ description: z.string() }),
      output: z.object({ url: z.string() }),
      run: ({ description }) => {
        built.push(description);
        return { url: 'http://127.0.0.1:4100/' };
      },
    }),
  );
  return { skills, built };
}

type Path = 'invoke_skill' | 'mode';

/** The same request down either path: a model calling `invoke_skill`, or the dedicated `app` mode. */
function start(path: Path, approvals: ApprovalGate, extra: Partial<OrchestratorOptions> = {}) {
  const { skills, built } = appSkills();
  const executor = new ScriptedModel([
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'invoke_skill',
          args: { skill_id: 'app_builder', params: { description: 'todo' } },
        },
      ],
    },
    { text: 'Finished.' },
  ]);
  const orchestrator = new Orchestrator({
    runtime: testRuntime(),
    ...(path === 'mode' ? { skills } : { tools: createSkillTools(skills) }),
    ...extra,
    models: { planner: new ScriptedModel([]), executor },
    planning: { classify: 'heuristic' },
    safety: { approvals, ...extra.safety },
  });
  const run = orchestrator.run('todo', path === 'mode' ? { mode: 'app' } : {});
  const events: TandemEvent[] = [];
  run.on('*', (e) => events.push(e));
  return { orchestrator, run, events, built };
}

function answering(action: 'approve' | 'deny') {
  const bus = new MemoryInterruptBus();
  return { bus, approvals: new ApprovalGate({ bus }), action };
}

describe('a risky skill asks for approval the same way on both paths', () => {
  for (const action of ['approve', 'deny'] as const) {
    it(`asks the same question, and ${action === 'deny' ? 'a denial runs nothing' : 'an approval runs it once'}`, async () => {
      const seen: Record<Path, unknown> = { invoke_skill: undefined, mode: undefined };
      for (const path of ['invoke_skill', 'mode'] as const) {
        const { bus, approvals } = answering(action);
        const { run, events, built } = start(path, approvals);
        run.on('interrupt', (e) => void bus.respond(e.interrupt.id, { action }));
        await run.result;
        const interrupts = events.filter((e) => e.type === 'interrupt');
        const results = events.filter(
          (e): e is TandemEvent<'tool_result'> => e.type === 'tool_result' && e.name === 'invoke_skill',
        );
        expect(built).toEqual(action === 'approve' ? ['todo'] : []);
        seen[path] = {
          questions: interrupts.map((e) => {
            const { kind, title, toolName, args } = (e as TandemEvent<'interrupt'>).interrupt;
            return { kind, title, toolName, args };
          }),
          results: results.map((e) => ({ isError: e.isError, output: action === 'deny' ? e.output : 'ran' })),
        };
      }
      expect(seen.mode).toEqual(seen.invoke_skill);
      expect(seen.mode).toMatchObject({
        questions: [
          {
            kind: 'approval',
            toolName: 'invoke_skill',
            args: { skill_id: 'app_builder', params: { description: 'todo' } },
          },
        ],
      });
      if (action === 'deny') {
        expect(seen.mode).toMatchObject({
          results: [
            { isError: true, output: 'User denied execution of invoke_skill. The tool was not executed.' },
          ],
        });
      }
    });
  }

  it('a denied dedicated mode ends failed, saying why', async () => {
    const { bus, approvals } = answering('deny');
    const { run, built } = start('mode', approvals);
    run.on('interrupt', (e) => void bus.respond(e.interrupt.id, { action: 'deny' }));
    const result = await run.result;
    expect(built).toEqual([]);
    expect(result).toMatchObject({
      status: 'failed',
      output: 'User denied execution of invoke_skill. The tool was not executed.',
    });
  });

  it('a run that pauses to ask pauses on both paths; the dedicated mode resumes with the answer', async () => {
    for (const path of ['invoke_skill', 'mode'] as const) {
      const store = new MemoryCheckpointStore<RunState>();
      const approvals = new ApprovalGate({ bus: new MemoryInterruptBus() });
      const options = { checkpoints: { store }, safety: { pauseOnInterrupt: true } };
      const { orchestrator, run, built } = start(path, approvals, options);
      expect((await run.result).error).toBeInstanceOf(RunError);
      await expect(run.result).resolves.toMatchObject({
        status: 'interrupted',
        error: { kind: 'interrupted' },
      });
      const saved = (await store.load(run.runId))!;
      expect(saved.status).toBe('paused');
      expect(saved.interrupts).toMatchObject([{ kind: 'approval', toolName: 'invoke_skill' }]);
      expect(built).toEqual([]);
      if (path !== 'mode') continue;
      const responses = { [saved.interrupts[0]!.id]: { action: 'approve' as const } };
      const resumed = await orchestrator.resume(saved, { responses, mode: 'app' }).result;
      expect(resumed.output).toBe('Running at http://127.0.0.1:4100/');
      expect(built).toEqual(['todo']);
    }
  });

  it('a paused dedicated mode resumes in its mode without passing it again, in a new process', async () => {
    const store = new MemoryCheckpointStore<RunState>();
    // No bus: the approval pauses the run, answered on the result's state.
    const { orchestrator, run, built } = start('mode', new ApprovalGate({}), { checkpoints: { store } });
    const paused = await run.result;
    expect(paused.status).toBe('interrupted');
    expect(paused.state?.mode).toBe('app');
    paused.state!.approve(paused.interruptions![0]!.id);
    // The state as another process would load it: plain JSON, no option but the state.
    const saved = JSON.parse(JSON.stringify(paused.state));
    const resumed = await orchestrator.resume(saved).result;
    expect(resumed).toMatchObject({ status: 'success', output: 'Running at http://127.0.0.1:4100/' });
    expect(built).toEqual(['todo']);
    expect((await store.load(run.runId))!.mode).toBe('app');
  });
});
