export * from './arguments.js';
export * from './output.js';
export * from './paths.js';
export * from './prepare.js';
export * from './registry.js';
export * from './runner.js';
export * from './similarity.js';
export * from './types.js';
