/** The ESM consumer (Node, Bun, Deno): `import` of the package and a subpath, zod from the project. */
import * as tandem from 'tandem-agents';
import * as testing from 'tandem-agents/testing';
import { z } from 'zod';
import { runToolAgent } from './scenario.mjs';

const outcome = await runToolAgent({
  tandem,
  testing,
  parameters: z.object({ a: z.number(), b: z.number() }),
});
console.log('esm ok', JSON.stringify(outcome));
