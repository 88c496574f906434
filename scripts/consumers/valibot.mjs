/** The valibot consumer: tool parameters as a valibot schema made Standard JSON Schema by @valibot/to-json-schema. */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as tandem from 'tandem-agents';
import * as testing from 'tandem-agents/testing';
import * as v from 'valibot';
import { runToolAgent } from './scenario.mjs';

const parameters = toStandardJsonSchema(v.object({ a: v.number(), b: v.number() }));
const outcome = await runToolAgent({ tandem, testing, parameters });
console.log('valibot ok', JSON.stringify(outcome));
