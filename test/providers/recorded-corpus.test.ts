import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RECORDED_FIXTURES as recorded } from './fixture-files.js';
import { recordedAnthropic } from './recorded/anthropic.js';
import { recordedGemini } from './recorded/gemini.js';
import { recordedOpenAIChat } from './recorded/openai-chat.js';
import { recordedOpenAIResponses } from './recorded/openai-responses.js';

// The corpus was recorded by other projects and is not part of the repository;
// CI checks it out beside the repository, a fresh clone has none.
const present = recorded.present();
if (!present) console.info(`recorded provider corpus skipped: ${recorded.dir} is absent`);

const REPLAYS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), 'recorded');

describe.skipIf(!present)(`recorded provider corpus (${recorded.dir})`, () => {
  it('holds exactly the files its manifest lists', () => {
    expect(recorded.files().length).toBeGreaterThan(0);
    expect(recorded.files()).toEqual([...recorded.manifest().keys()].sort());
  });

  it('has a replay naming every recorded file', () => {
    const replays = readdirSync(REPLAYS_DIR)
      .map((name) => readFileSync(resolve(REPLAYS_DIR, name), 'utf8'))
      .join('\n');
    expect(recorded.files().filter((file) => !replays.includes(file))).toEqual([]);
  });

  recordedOpenAIChat();
  recordedOpenAIResponses();
  recordedAnthropic();
  recordedGemini();
});
