export * from './approval-gate.js';
export * from './ask.js';
export * from './ask-user-tool.js';
export * from './interrupt-bus.js';
export * from './interruption.js';
export * from './interrupts.js';
