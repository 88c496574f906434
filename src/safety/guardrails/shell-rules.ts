/**
 * The destructive-command rules behind `checkShell`, run over the tokens of
 * {@link shellTokens}. Each rule walks the tokens once (the recursive-delete
 * rule at most three times per simple command) and tests words only with
 * anchored patterns without nested quantifiers, so a scan is linear in the
 * command's length. Internal: `checkShell` is the public entry point.
 * @module
 */
import { type ScanMeter, type ShellTokens, shellTokens } from './shell-tokens.js';

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

// Endless sources of zeros or noise: `dd` copying one into a file wipes the
// file or fills the disk (the seed blocked every `dd if=`).
const FILL_SOURCE = /^if=\/dev\/(?:zero|u?random)$/;
// `of=` onto a file; `/dev/null` and other non-disk devices write nothing.
const DD_FILE_OUTPUT = /^of=(?!\/dev\/)./;

const FETCHER = /^(?:curl|wget|fetch)$/i;
const FETCHER_ANYWHERE = /curl|wget|fetch/i;
const INTERPRETER = /^(?:(?:ba|z|k|da|fi|c|tc)?sh|python[\d.]*|perl|ruby|node)$/i;
const MKFS = /^(?:mkfs(?:\.\w+)?|mke2fs|mkswap|wipefs)$/;
const SLASH = 47;
const ASSIGNMENT = /^[A-Za-z_]\w*=/;
const DESTRUCTIVE = new Set(['rm', 'chmod', 'chown', 'chgrp', 'mke2fs', 'mkswap', 'wipefs', 'dd', 'shred']);
const DESTRUCTIVE_ANYWHERE = /rm|ch(?:mod|own|grp)|mk(?:fs|e2fs|swap)|wipefs|dd|shred/;

// Operators that end a pipeline. A lone `&` does not: with quotes dropped, the
// `&` of a URL's query (`curl "https://x?a=1&b=2" | sh`) is read as one.
const PIPELINE_ENDS = new Set([';', ';;', '&&', '||', '\n']);
const PIPES = new Set(['|', '|&']);
const SUBSTITUTIONS = new Set(['$(', '<(', '`']);
const REDIRECTS = new Set(['>', '>>', '>|']);

// Commands that run the command after them, with their options that take a value.
const WRAPPERS = new Map<string, ReadonlySet<string>>([
  ['sudo', new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T'])],
  ['doas', new Set(['-u', '-C'])],
  ['env', new Set(['-u', '-C', '-S'])],
  ['nice', new Set(['-n'])],
  ['exec', new Set(['-a'])],
  ['nohup', new Set()],
  ['time', new Set()],
  ['command', new Set()],
]);

const OK: ShellVerdict = { ok: true };

/** A simple command: its words are `tokens[start..end)`, the operators before it `tokens[opsStart..start)`. */
type CommandCheck = (start: number, end: number, opsStart: number) => ShellVerdict | undefined;

/**
 * Checks `command` (at most `maxLength` characters; longer is blocked,
 * unread), adding its work to `meter`.
 */
export function scanShell(command: string, maxLength: number, meter: ScanMeter): ShellVerdict {
  if (command.length > maxLength) {
    return block(
      'shell.too_long',
      `Command is ${command.length} characters long; the scanner reads at most ${maxLength}`,
    );
  }
  const text = command
    .replace(/\$\{?IFS\}?/g, ' ')
    .replace(/\$\{HOME\}/gi, '$HOME')
    .replace(/\\\n/g, ' ')
    // Dropped rather than parsed, as the shell drops them: `r\m`, `"rm"` and
    // `r''m` are all `rm`, and a command inside a string (`os.system("rm -rf /")`,
    // `sh -c 'curl … | sh'`) is scanned as a command too.
    .replace(/["'\\]/g, '');
  meter.steps += command.length;
  const scan = shellTokens(text, meter);
  const { tokens } = scan;
  const each = (check: CommandCheck) => forEachCommand(scan, meter, check);
  // Each rule needs some word or character: one native substring search
  // spares the rules that cannot match a walk over every token.
  return (
    (text.includes('|') && forkBomb(tokens, meter)) ||
    (FETCHER_ANYWHERE.test(text) && remoteScript(tokens, each)) ||
    (text.includes('/dev/') &&
      each((from, to, opsFrom) =>
        (from > opsFrom && redirectsOntoDevice(tokens, from)) || teesOntoDevice(tokens, from, to)
          ? block('shell.device_write', 'Command redirects output onto a disk device')
          : undefined,
      )) ||
    (DESTRUCTIVE_ANYWHERE.test(text) && each((from, to) => destructive(scan, from, to))) ||
    OK
  );
}

function forEachCommand({ bounds }: ShellTokens, meter: ScanMeter, check: CommandCheck) {
  for (let c = 0; c < bounds.length; c += 3) {
    meter.steps += bounds[c + 2]! - bounds[c]!;
    const verdict = check(bounds[c + 1]!, bounds[c + 2]!, bounds[c]!);
    if (verdict) return verdict;
  }
  return undefined;
}

// After the name: `(){ name|name& }`; `''` stands for the name.
const FORK_BOMB_BODY = ['(', ')', '{', '', '|', '', '&', '}'];

/** `name(){ name|name& };name`, in any spacing. */
function forkBomb(tokens: readonly string[], meter: ScanMeter): ShellVerdict | undefined {
  for (let i = 0; i + FORK_BOMB_BODY.length < tokens.length; i++) {
    meter.steps++;
    if (tokens[i + 1] !== '(') continue;
    const name = tokens[i];
    let k = 0;
    while (k < FORK_BOMB_BODY.length && tokens[i + 1 + k] === (FORK_BOMB_BODY[k] || name)) k++;
    let call = i + 1 + FORK_BOMB_BODY.length;
    if (tokens[call] === ';' || tokens[call] === '\n') call++;
    if (k === FORK_BOMB_BODY.length && tokens[call] === name)
      return block('shell.fork_bomb', 'Command is a fork bomb');
  }
  return undefined;
}

/**
 * A download run by an interpreter: piped into it (`curl … | sudo bash`,
 * through any filters in the same pipeline), or handed to it as a process or
 * command substitution (`bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(wget …)"`).
 */
function remoteScript(tokens: readonly string[], each: (check: CommandCheck) => ShellVerdict | undefined) {
  let fetched = false;
  let previousRunsCode = false;
  return each((start, end, opsStart) => {
    let piped = false;
    for (let k = opsStart; k < start; k++) {
      if (PIPELINE_ENDS.has(tokens[k]!)) fetched = false;
      piped ||= PIPES.has(tokens[k]!);
    }
    const first = commandStart(tokens, start, end);
    const name = first < end ? commandName(tokens[first]!) : '';
    const substituted =
      previousRunsCode &&
      SUBSTITUTIONS.has(tokens[start - 1] ?? '') &&
      onlyInputRedirects(tokens, opsStart, start - 1);
    const interpreter = INTERPRETER.test(name);
    if ((fetched && piped && interpreter) || (substituted && isFetcher(name))) {
      return block('shell.remote_script', 'Command pipes a downloaded script into an interpreter');
    }
    previousRunsCode =
      (interpreter || name === 'source' || name === '.' || name === 'eval') &&
      onlyOptions(tokens, first + 1, end);
    for (let k = start; k < end && !fetched; k++) fetched = isFetcher(tokens[k]!);
    return undefined;
  });
}

/**
 * Whether the command whose words start at `start` is a disk device that
 * output is redirected onto (the caller checks an operator precedes it).
 */
function redirectsOntoDevice(tokens: readonly string[], start: number): boolean {
  return REDIRECTS.has(tokens[start - 1]!) && isDiskDevice(tokens[start]!);
}

/** Whether the command `tokens[start..end)` is a `tee` onto a disk device. */
function teesOntoDevice(tokens: readonly string[], start: number, end: number): boolean {
  const first = commandStart(tokens, start, end);
  let teed = false;
  if (first < end && commandName(tokens[first]!) === 'tee') {
    for (let k = first + 1; k < end && !teed; k++)
      teed = !tokens[k]!.startsWith('-') && isDiskDevice(tokens[k]!);
  }
  return teed;
}

/** What the words after a position say about the arguments of a command there. */
interface Tail {
  /** `-r`/`-R`/`--recursive` (rm) before the first `--`. */
  rmRecursive: boolean;
  /** `-R`/`--recursive` (chmod, chown, chgrp) before the first `--`. */
  chRecursive: boolean;
  /** First operand that is `/`, `~`, `$HOME` or a system directory. */
  target: string | undefined;
  /** First such word anywhere: the target when a `--` comes first. */
  anyTarget: string | undefined;
  /** Some `of=<disk device>` (dd). */
  ddDevice: boolean;
  /** Some `if=/dev/zero`, `if=/dev/urandom` or `if=/dev/random` (dd). */
  ddFill: boolean;
  /** Some `of=<file>`, or the command's output redirected into a file (dd). */
  ddFile: boolean;
  /** Some word naming a disk device (shred). */
  device: boolean;
}

/**
 * `rm -rf /`, `chmod -R 777 /etc`, `mkfs`, `dd of=/dev/sda`,
 * `dd if=/dev/zero of=x`, `shred /dev/sda` anywhere in the simple command
 * `tokens[start..end)` of `scan` (its output redirected into a file counts
 * as a dd `of=`). Skips commands naming none of these; else
 * walks the words right to left, keeping one summary of the arguments after
 * the current word, so each word is visited once.
 */
function destructive({ tokens, meter }: ShellTokens, start: number, end: number) {
  let first = start;
  while (first < end && !isDestructiveName(commandName(tokens[first]!))) first++;
  if (first === end) return undefined;
  meter.steps += end - first;
  const tail: Tail = {
    rmRecursive: false,
    chRecursive: false,
    target: undefined,
    anyTarget: undefined,
    ddDevice: false,
    ddFill: false,
    ddFile: redirectsToFile(tokens, end),
    device: false,
  };
  let found: ShellVerdict | undefined;
  for (let i = end - 1; i >= first; i--) {
    found = commandVerdict(commandName(tokens[i]!), tail) ?? found;
    addWord(tokens[i]!, tail);
  }
  return found;
}

function isDestructiveName(name: string): boolean {
  return DESTRUCTIVE.has(name) || name.startsWith('mkfs');
}

function commandVerdict(name: string, tail: Tail): ShellVerdict | undefined {
  if (!isDestructiveName(name)) return undefined;
  const recursiveTarget = tail.target !== undefined;
  if (name === 'rm' && tail.rmRecursive && recursiveTarget)
    return block('shell.rm_root', `Command recursively deletes "${tail.target}"`);
  if ((name === 'chmod' || name === 'chown' || name === 'chgrp') && tail.chRecursive && recursiveTarget)
    return block('shell.chmod_root', `Command recursively changes permissions of "${tail.target}"`);
  if (MKFS.test(name)) return block('shell.mkfs', `Command creates or wipes a filesystem (${name})`);
  if (name === 'dd' && tail.ddDevice)
    return block('shell.dd_device', 'Command writes to a disk device with dd');
  if (name === 'dd' && tail.ddFill && tail.ddFile)
    return block('shell.dd_fill', 'Command overwrites a file with zeros or random bytes using dd');
  if (name === 'shred' && tail.device) return block('shell.dd_device', 'Command shreds a disk device');
  return undefined;
}

/** Turns the summary of the words after `word` into the summary from `word` on. */
function addWord(word: string, tail: Tail): void {
  const lead = word[0];
  const dangerous = (lead === '/' || lead === '~' || lead === '$') && DANGEROUS_TARGET.test(word);
  const device = word.includes('/dev/') && DISK_DEVICE.test(word);
  tail.ddDevice ||= device && word.startsWith('of=');
  tail.ddFill ||= FILL_SOURCE.test(word);
  tail.ddFile ||= DD_FILE_OUTPUT.test(word);
  tail.device ||= device;
  if (word === '--') {
    // After `--` every word is an operand and no word is an option.
    tail.rmRecursive = false;
    tail.chRecursive = false;
    tail.target = tail.anyTarget;
  } else if (lead === '-') {
    const short = !word.startsWith('--');
    tail.rmRecursive ||= word === '--recursive' || (short && hasShortOption(word, 'r', 'R'));
    tail.chRecursive ||= word === '--recursive' || (short && hasShortOption(word, 'R', 'R'));
  } else if (dangerous) {
    tail.target = word;
  }
  if (dangerous) tail.anyTarget = word;
}

/** `-rf`, `-fR`: a run of letters after one dash that includes `letter` or `alsoLetter`. */
function hasShortOption(word: string, letter: string, alsoLetter: string): boolean {
  for (let i = 1; i < word.length; i++) {
    const c = word[i]!;
    if (c === letter || c === alsoLetter) return true;
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  }
  return false;
}

/** Index of the command word after wrappers and assignments: `sudo -u root env A=1 bash` → `bash`. */
function commandStart(tokens: readonly string[], start: number, end: number): number {
  let i = start;
  while (i < end) {
    if (tokens[i]!.includes('=') && ASSIGNMENT.test(tokens[i]!)) {
      i++;
      continue;
    }
    const valued = WRAPPERS.get(commandName(tokens[i]!));
    if (!valued) break;
    i++;
    while (i < end && tokens[i]!.startsWith('-')) i += valued.has(tokens[i]!) ? 2 : 1;
  }
  return i;
}

/** `rm`, `/bin/rm` → `rm`. */
function commandName(word: string): string {
  // A loop rather than lastIndexOf: this runs for every word, and the loop is inlined.
  let slash = -1;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) === SLASH) slash = i;
  return slash < 0 ? word : word.slice(slash + 1);
}

function isFetcher(word: string): boolean {
  const name = commandName(word);
  return name.length >= 4 && name.length <= 5 && FETCHER.test(name);
}

function isDiskDevice(word: string): boolean {
  return word.startsWith('/dev/') && DISK_DEVICE.test(word);
}

function onlyOptions(tokens: readonly string[], from: number, end: number): boolean {
  for (let k = from; k < end; k++) if (!tokens[k]!.startsWith('-')) return false;
  return true;
}

/**
 * Whether the command whose words end at `end` sends its standard output into
 * a file: `> x`, `>> x`, `1> x`, not `2> x` or `> /dev/null`.
 */
function redirectsToFile(tokens: readonly string[], end: number): boolean {
  if (!REDIRECTS.has(tokens[end] ?? '')) return false;
  const fd = tokens[end - 1]!;
  const target = tokens[end + 1];
  return (fd.length !== 1 || fd === '1' || fd < '0' || fd > '9') && !!target && !target.startsWith('/dev/');
}

/** Only `<` operators in `tokens[from..to)`: `bash < <(curl …)` runs the download as well. */
function onlyInputRedirects(tokens: readonly string[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (tokens[k] !== '<') return false;
  return true;
}

function block(rule: `shell.${string}`, reason: string): ShellVerdict {
  return { ok: false, rule, reason };
}
