import { describe, expect, it } from 'vitest';
import type { StepJob } from '../../src/agents/orchestrator/index.js';
import { imagePart, type Message, toBase64 } from '../../src/index.js';
import { decideComplex, planJson, setup } from '../orchestrator/helpers.js';
import { useQueueFixture } from './helpers.js';

const fixture = useQueueFixture();

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const history: Message[] = [
  { role: 'user', content: "We're comparing two charts" },
  { role: 'assistant', content: [{ type: 'text', text: 'Send them over.' }] },
];

describe('queue: a step of a run with an image and a history', () => {
  it('reaches the worker as plain JSON: the step sees the history and the image as base64', async () => {
    const queueName = fixture.queueName();
    const remote = setup({ executor: [{ text: 'B grows faster' }] });
    const jobs: StepJob[] = [];
    await fixture.worker({
      queueName,
      orchestrator: {
        runStep: (job, context) => {
          jobs.push(job);
          return remote.orchestrator.runStep(job, context);
        },
      },
    });
    const { orchestrator } = setup(
      {
        planner: [decideComplex, { text: planJson([{ id: 's1' }]) }],
        verifier: [{ text: 'PASS: ok' }],
        finalizer: [{ text: 'final' }],
      },
      { stepRunner: fixture.runner({ queueName }) },
    );
    const text = { type: 'text' as const, text: 'Which one grows faster?' };
    const result = await orchestrator.run([text, imagePart(PNG, 'image/png')], { history }).result;

    expect(result.steps.map((s) => s.status)).toEqual(['completed']);
    expect(jobs[0]?.task).toBe('Which one grows faster?\n[image: image/png, 8 bytes]');
    const [request] = remote.models.executor.requests;
    expect(request!.messages.slice(0, 2)).toEqual(history);
    expect(request!.messages[2]).toMatchObject({
      role: 'user',
      content: [text, { type: 'image', mediaType: 'image/png', data: toBase64(PNG) }, { type: 'text' }],
    });
  });
});
