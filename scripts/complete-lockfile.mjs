// Completes package-lock.json with the platform packages (biome, rollup) that this
// workplace's registry mirror does not carry, so `npm ci` accepts the lock everywhere.
// Run after `npm install` changes the lock: `node scripts/complete-lockfile.mjs package-lock.json`.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = process.argv[2];
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const pkgs = lock.packages;
// Platform packages the registry mirror here does not carry: recorded so `npm ci` sees a complete
// lock; on linux-x64 npm skips them by os/cpu without fetching.
const added = [];
for (const entry of Object.values(pkgs)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (pkgs[key]) continue;
    const m = name.match(
      /-(android|darwin|freebsd|openbsd|openharmony|linux|win32)-([a-z0-9]+?)(?:-(gnueabihf|musleabihf|eabi|gnu|musl|msvc))?$/,
    );
    if (!m) continue;
    const [, os, rawCpu, abi] = m;
    const cpu = rawCpu === 'arm' ? 'arm' : rawCpu;
    const stub = { version, dev: entry.dev, optional: true, os: [os], cpu: [cpu] };
    if (os === 'linux' && abi) stub.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
    pkgs[key] = stub;
    added.push(key);
  }
}
const sorted = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
lock.packages = sorted;
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added.length}`);
