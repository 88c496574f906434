// Install size of a framework: `du` of a fresh node_modules holding only its
// packages at the versions installed here (needs the npm registry), cached in
// .cache/sizes.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const r1 = (v) => (v == null || Number.isNaN(v) ? v : Math.round(v * 10) / 10);

/** The version of `pkg` installed in bench/peers/node_modules. */
export function installedVersion(pkg) {
  return JSON.parse(fs.readFileSync(path.join(HERE, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

const CACHE_DIR = path.join(HERE, '.cache');
const SIZE_CACHE = path.join(CACHE_DIR, 'sizes.json');

/** Disk size and package count of a fresh install of `meta.packages` at the installed versions (cached unless `fresh`). */
export function measureSize(meta, fresh = false) {
  const specs = meta.packages.map((p) => `${p}@${installedVersion(p)}`);
  const key = specs.join(' ');
  let cache = {};
  try {
    cache = JSON.parse(fs.readFileSync(SIZE_CACHE, 'utf8'));
  } catch {}
  if (!fresh && cache[key]) return { ...cache[key], cached: true };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `peers-size-${meta.id}-`));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'size-probe', private: true }));
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs],
      {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const nm = path.join(dir, 'node_modules');
    const kb = Number(execFileSync('du', ['-sk', nm], { encoding: 'utf8' }).split(/\s/)[0]);
    const apparentKb = Number(
      execFileSync('du', ['-sk', '--apparent-size', nm], { encoding: 'utf8' }).split(/\s/)[0],
    );
    const lock = JSON.parse(fs.readFileSync(path.join(nm, '.package-lock.json'), 'utf8'));
    const entries = Object.entries(lock.packages).filter(
      ([k, v]) => k.startsWith('node_modules/') && !v.link,
    );
    const names = [...new Set(entries.map(([k]) => k.slice(k.lastIndexOf('node_modules/') + 13)))].sort();
    const requested = new Set(meta.packages);
    const result = {
      specs,
      diskMB: r1(kb / 1024),
      apparentMB: r1(apparentKb / 1024),
      packages: entries.length, // installed package folders, incl. the requested ones and zod
      transitive: entries.filter(([k]) => !requested.has(k.slice(13))).length, // minus the requested top-level ones
      names,
      measuredAt: new Date().toISOString(),
    };
    cache[key] = result;
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.writeFileSync(SIZE_CACHE, JSON.stringify(cache, null, 2));
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
