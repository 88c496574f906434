/**
 * The helper library CodeAct scripts import: small modules written into the
 * sandbox (`.tandem/lib/`) giving a script `read`, `write`, `list` and `run`
 * over its workspace. They run inside the sandbox, so they reach exactly
 * what the sandbox allows.
 * @module
 */

/** Workspace directory of the helper modules. */
export const CODEACT_LIB_DIR = '.tandem/lib';

/**
 * `tandem.py`: `read(path)`, `write(path, content)`, `list(path='.', recursive=False)`,
 * `run(command, timeout=None)`, `search(query, max_results=5)`.
 */
export const PYTHON_HELPERS = `"""Helpers for scripts run by execute_script. Paths are relative to the workspace root."""
import json as _json
import os as _os
import socket as _socket
import subprocess as _subprocess

ROOT = _os.path.abspath(_os.path.join(_os.path.dirname(__file__), "..", ".."))


def _full(path):
    return _os.path.join(ROOT, path)


def read(path):
    """Returns the text of a file."""
    with open(_full(path), encoding="utf-8") as f:
        return f.read()


def write(path, content):
    """Writes text to a file, creating directories; returns the number of characters written."""
    full = _full(path)
    _os.makedirs(_os.path.dirname(full) or ".", exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        return f.write(content)


def list_files(path=".", recursive=False):
    """Returns relative paths under a directory; directories end with '/'."""
    out = []
    for dirpath, dirnames, filenames in _os.walk(_full(path)):
        rel = _os.path.relpath(dirpath, ROOT)
        prefix = "" if rel == "." else rel + "/"
        out.extend(prefix + d + "/" for d in sorted(dirnames))
        out.extend(prefix + f for f in sorted(filenames))
        if not recursive:
            break
    return sorted(out)


def run(command, timeout=None):
    """Runs a shell command in the workspace; returns {'exit_code', 'stdout', 'stderr'}."""
    r = _subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    return {"exit_code": r.returncode, "stdout": r.stdout, "stderr": r.stderr}


def search(query, max_results=5):
    """Searches the web through the host; returns [{'title', 'url', 'snippet'}]."""
    bridge = _os.environ.get("TANDEM_BRIDGE")
    if not bridge:
        raise RuntimeError("web search is not configured for this sandbox")
    with _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM) as s:
        s.connect(_os.path.join(ROOT, bridge))
        s.sendall((_json.dumps({"query": query, "max_results": max_results}) + "\\n").encode())
        data = b""
        while not data.endswith(b"\\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    answer = _json.loads(data.decode() or "{}")
    if "error" in answer:
        raise RuntimeError("search failed: " + answer["error"])
    return answer["results"]


list = list_files
`;

/**
 * `tandem.cjs`: `read(path)`, `write(path, content)`, `list(path = '.', recursive = false)`,
 * `run(command, { timeout })`, `search(query, { maxResults })`.
 */
export const NODE_HELPERS = `'use strict';
// Helpers for scripts run by execute_script. Paths are relative to the workspace root.
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const full = (p) => path.resolve(ROOT, p);

exports.ROOT = ROOT;
exports.read = (p) => fs.readFileSync(full(p), 'utf8');
exports.write = (p, content) => {
  fs.mkdirSync(path.dirname(full(p)), { recursive: true });
  fs.writeFileSync(full(p), content);
  return content.length;
};
exports.list = (p = '.', recursive = false) => {
  const out = [];
  const walk = (dir) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = path.relative(ROOT, path.join(dir, d.name));
      out.push(d.isDirectory() ? rel + '/' : rel);
      if (recursive && d.isDirectory()) walk(path.join(dir, d.name));
    }
  };
  walk(full(p));
  return out.sort();
};
exports.run = (command, options = {}) => {
  const r = childProcess.spawnSync('/bin/sh', ['-c', command], { cwd: ROOT, encoding: 'utf8', timeout: options.timeout });
  return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr };
};
// Synchronous like the rest: a child node does the socket round trip.
const SEARCH_CLIENT =
  "const s=require('node:net').connect(process.argv[1]);let d='';s.setEncoding('utf8');" +
  "s.on('data',(c)=>{d+=c});s.on('end',()=>process.stdout.write(d));" +
  "s.on('error',(e)=>process.stdout.write(JSON.stringify({error:e.message})));" +
  "process.stdin.pipe(s);";
exports.search = (query, options = {}) => {
  const bridge = process.env.TANDEM_BRIDGE;
  if (!bridge) throw new Error('web search is not configured for this sandbox');
  const input = JSON.stringify({ query, max_results: options.maxResults ?? 5 }) + '\\n';
  const r = childProcess.spawnSync(process.execPath, ['-e', SEARCH_CLIENT, full(bridge)], { input, encoding: 'utf8' });
  const answer = JSON.parse(r.stdout || '{}');
  if (answer.error) throw new Error('search failed: ' + answer.error);
  return answer.results;
};
`;

/** Helper file and the line put in front of a script to load it, per language. */
export const CODEACT_HELPERS = {
  python: {
    file: `${CODEACT_LIB_DIR}/tandem.py`,
    source: PYTHON_HELPERS,
    prelude: `import sys as _s, os as _o; _s.path.insert(0, _o.path.abspath(${JSON.stringify(CODEACT_LIB_DIR)})); import tandem\n`,
  },
  node: {
    file: `${CODEACT_LIB_DIR}/tandem.cjs`,
    source: NODE_HELPERS,
    prelude: `const tandem = require(require('node:path').resolve(${JSON.stringify(`${CODEACT_LIB_DIR}/tandem.cjs`)}));\n`,
  },
} as const;
