/**
 * Destructive shell and code patterns: recursive deletes of `/`, `~` or
 * system directories, fork bombs, filesystem creation, raw writes to disk
 * devices, recursive permission changes of `/`, and remote scripts piped
 * into a shell. Commands are split into words (quotes removed, `$IFS`
 * expanded) so `"rm" -r -f /` is caught while `rm -rf /tmp/x` is not.
 * @module
 */

/** A shell check's verdict. */
export type ShellVerdict = { ok: true } | { ok: false; rule: `shell.${string}`; reason: string };

// Top-level system directories whose recursive removal or chmod breaks the machine.
const SYSTEM_DIRS =
  'bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var|System|Users|Library|Applications';
const DANGEROUS_TARGET = new RegExp(
  `^(?:/+[.*]?|/+(?:${SYSTEM_DIRS})/*\\*?|~[^/\\s]*/*\\*?|\\$home/*\\*?)$`,
  'i',
);

// Devices whose direct write destroys data; /dev/null and friends are fine.
const DISK_DEVICE =
  /\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|md\d|loop\d|dm-\d)/;

const DEVICE_WRITE = new RegExp(String.raw`(?:>{1,2}|\btee\s+(?:-\S+\s+)*)\s*["']?${DISK_DEVICE.source}`);

const FETCHER = String.raw`(?:curl|wget|fetch)\b`;
const SHELL = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:/\S*/)?(?:ba|z|k|da|fi|c|tc)?sh\b`;
const REMOTE_SCRIPT: readonly RegExp[] = [
  new RegExp(String.raw`\b${FETCHER}[^|;&\n]*\|\s*${SHELL}`, 'i'),
  new RegExp(
    String.raw`\b${FETCHER}[^|;&\n]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:python3?|perl|ruby|node)\b`,
    'i',
  ),
  new RegExp(String.raw`\b(?:ba|z|k|da)?sh\s+(?:-\S+\s+)*<\(\s*${FETCHER}`, 'i'),
  new RegExp(String.raw`(?:^|[\s;&|(])(?:source|\.|eval)\s+["']?(?:<\(|\$\()\s*${FETCHER}`, 'i'),
  new RegExp(String.raw`\b(?:ba|z|k|da)?sh\s+-c\s+["']?\$\(\s*${FETCHER}`, 'i'),
];

const FORK_BOMB = /([A-Za-z_:][\w:.]*)\(\)\{\1\|\1&\};?\1/;

/** Checks a shell command or a code snippet for destructive patterns. */
export function checkShell(command: string): ShellVerdict {
  const text = command
    .replace(/\$\{?IFS\}?/g, ' ')
    .replace(/\$\{HOME\}/gi, '$HOME')
    .replace(/\\\n/g, ' ');
  if (FORK_BOMB.test(text.replace(/\s+/g, ''))) return block('shell.fork_bomb', 'Command is a fork bomb');
  if (REMOTE_SCRIPT.some((re) => re.test(text))) {
    return block('shell.remote_script', 'Command pipes a downloaded script into an interpreter');
  }
  if (DEVICE_WRITE.test(text)) {
    return block('shell.device_write', 'Command redirects output onto a disk device');
  }
  for (const words of segments(text)) {
    const verdict = checkWords(words);
    if (!verdict.ok) return verdict;
  }
  return { ok: true };
}

function checkWords(words: readonly string[]): ShellVerdict {
  for (let i = 0; i < words.length; i++) {
    const name = commandName(words[i]!);
    const rest = words.slice(i + 1);
    if (name === 'rm' && recursive(rest, /^-[a-z]*r/i, '--recursive')) {
      const target = operands(rest).find((w) => DANGEROUS_TARGET.test(w));
      if (target !== undefined) return block('shell.rm_root', `Command recursively deletes "${target}"`);
    }
    if (
      (name === 'chmod' || name === 'chown' || name === 'chgrp') &&
      recursive(rest, /^-[a-z]*R/, '--recursive')
    ) {
      const target = operands(rest).find((w) => DANGEROUS_TARGET.test(w));
      if (target !== undefined)
        return block('shell.chmod_root', `Command recursively changes permissions of "${target}"`);
    }
    if (/^(?:mkfs(?:\.\w+)?|mke2fs|mkswap|wipefs)$/.test(name)) {
      return block('shell.mkfs', `Command creates or wipes a filesystem (${name})`);
    }
    if (name === 'dd' && rest.some((w) => /^of=/.test(w) && DISK_DEVICE.test(w))) {
      return block('shell.dd_device', 'Command writes to a disk device with dd');
    }
    if (name === 'shred' && rest.some((w) => DISK_DEVICE.test(w))) {
      return block('shell.dd_device', 'Command shreds a disk device');
    }
  }
  return { ok: true };
}

/** `rm`, `/bin/rm`, `\rm` → `rm`. */
function commandName(word: string): string {
  return word.replace(/^\\/, '').replace(/^.*\//, '');
}

function recursive(args: readonly string[], short: RegExp, long: string): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === long || (!arg.startsWith('--') && short.test(arg))) return true;
  }
  return false;
}

function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (!afterDashes && arg === '--') afterDashes = true;
    else if (afterDashes || !arg.startsWith('-')) out.push(arg);
  }
  return out;
}

/**
 * Splits text into the words of each simple command: separated by control
 * operators, subshell and substitution brackets, and (for code that shells
 * out, e.g. `os.system("rm -rf /")`) call punctuation; quotes are dropped.
 */
function segments(text: string): string[][] {
  return text
    .replace(/["'`]/g, (q) => (q === '`' ? '\n' : ''))
    .split(/[;&|\n(){}<>]+/)
    .map((segment) => segment.split(/[\s,[\]]+/).filter((w) => w.length > 0))
    .filter((words) => words.length > 0);
}

function block(rule: `shell.${string}`, reason: string): ShellVerdict {
  return { ok: false, rule, reason };
}
