import { defineConfig } from 'tsup';

// Subpath entry points; every adapter gets its own so the core never pulls one in.
const entry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'openai/index': 'src/providers/openai/index.ts',
  'anthropic/index': 'src/providers/anthropic/index.ts',
  'gemini/index': 'src/providers/gemini/index.ts',
  'ai-sdk/index': 'src/providers/ai-sdk/index.ts',
  'sandbox/index': 'src/sandbox/index.ts',
  'redis/index': 'src/redis/index.ts',
  'fs/index': 'src/fs/index.ts',
  'mcp/index': 'src/mcp/index.ts',
  'otel/index': 'src/otel/index.ts',
  'queue/index': 'src/queue/index.ts',
};

export default defineConfig([
  {
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    splitting: true,
    treeshake: true,
  },
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    // p-limit is ESM-only; CJS consumers get it bundled so `require` never meets ESM.
    noExternal: ['p-limit', 'yocto-queue'],
  },
]);
