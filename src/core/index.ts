export * from './abortable.js';
export * from './errors.js';
export * from './event-bus.js';
export * from './events.js';
export * from './messages.js';
export * from './sandbox.js';
export * from './seams.js';
export * from './usage.js';
