#!/usr/bin/env node
// The `tandem-eval` executable. Plain JavaScript in a .ts file: the build copies it to dist/evals/bin.js as is.
import { runEval } from './index.js';

process.exitCode = await runEval();
