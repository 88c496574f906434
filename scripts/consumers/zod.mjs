/** The zod consumer: tool parameters from `zod/v4`, which zod 3.25 and zod 4 both ship. */
import { createRequire } from 'node:module';
import * as tandem from 'tandem-agents';
import * as testing from 'tandem-agents/testing';
import { z } from 'zod/v4';
import { runToolAgent } from './scenario.mjs';

const { version } = createRequire(import.meta.url)('zod/package.json');
const outcome = await runToolAgent({
  tandem,
  testing,
  parameters: z.object({ a: z.number(), b: z.number() }),
});
console.log(`zod ${version} ok`, JSON.stringify(outcome));
