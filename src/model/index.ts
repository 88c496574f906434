export * from './invoke.js';
export * from './stream.js';
export * from './types.js';
