/**
 * `tandem-agents/sandbox` (Node only): sandboxes that implement the core
 * `Sandbox` contract — `LocalProcessSandbox` (convenience, no isolation) and
 * `BubblewrapSandbox` (the boundary for untrusted code) — plus the
 * `SandboxManager`, snapshots, handoff artifacts and the sandbox tools.
 * @packageDocumentation
 */
export * from './artifacts.js';
export * from './base.js';
export * from './bubblewrap.js';
export * from './bwrap-args.js';
export * from './cgroup.js';
export * from './codeact-lib.js';
export * from './command.js';
export * from './errors.js';
export * from './glob.js';
export * from './local.js';
export * from './manager.js';
export * from './process.js';
export * from './read-file.js';
export * from './rollback-points.js';
export * from './snapshot-storage.js';
export * from './snapshots.js';
export * from './tools.js';
export * from './workspace.js';
