/**
 * The tool-call guardrail: finds the URLs and shell/code strings in a call's
 * arguments and checks them ({@link checkUrl}, {@link checkShell}).
 *
 * URLs: every string (or number) under a key whose last word is
 * url/uri/href/endpoint/link (`url`, `imageUrl`, `base_url`, `links[]`), and
 * any other string that is an absolute `scheme://` URL or parses as an
 * http(s)/ws(s)/ftp/file URL. Strings are read the way the WHATWG parser
 * reads them (tabs and newlines anywhere dropped, controls at the ends
 * trimmed). Commands: strings under code / command / commands / script / cmd
 * keys of the tools named in `shellTools`.
 *
 * Everything the scan cannot finish fails closed by default: more strings or
 * deeper nesting than its limits, and a scan that outlives its budget (a slow
 * DNS `resolve`).
 * @module
 */
import { memoized } from '../../core/memo.js';
import { urlParserInput } from './normalize.js';
import { checkShell } from './shell-check.js';
import type {
  Guardrail,
  GuardrailAction,
  GuardrailFinding,
  GuardrailScanContext,
  ToolScanSubject,
} from './types.js';
import { checkUrl, inspectUrl, type UrlPolicy, type UrlVerdict } from './url-check.js';

/** Tools whose code/command arguments are scanned by default (the seed's list and common names). */
export const DEFAULT_SHELL_TOOLS: readonly string[] = [
  'execute_code',
  'run_python',
  'run_shell',
  'run_command',
  'code_sandbox',
  'execute_script',
  'shell_exec',
  'shell',
  'bash',
  'terminal',
  'exec',
  'file_write',
  'file_str_replace',
];

/** Argument key words holding code or commands. */
export const DEFAULT_SHELL_ARG_KEYS: readonly string[] = ['code', 'command', 'commands', 'script', 'cmd'];

/** Default {@link ToolArgsGuardrailOptions.maxStrings}. */
export const DEFAULT_MAX_ARG_STRINGS = 1000;

/** Default {@link ToolArgsGuardrailOptions.maxDepth}. */
export const DEFAULT_MAX_ARG_DEPTH = 16;

const URL_KEY_WORDS = new Set([
  'url',
  'urls',
  'uri',
  'uris',
  'href',
  'hrefs',
  'endpoint',
  'endpoints',
  'link',
  'links',
]);

// Schemes the WHATWG parser gives an authority even without `//` (`http:127.0.0.1`).
const SPECIAL_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);

/** Options of {@link toolArgsGuardrail}. */
export interface ToolArgsGuardrailOptions {
  /** URL policy, or `false` to skip URL checks. Default: http(s) to public hosts only. */
  url?: UrlPolicy | false;
  /** Tools whose command arguments are scanned: names, or a predicate. `false` skips shell checks. */
  shellTools?: readonly string[] | ((toolName: string) => boolean) | false;
  /** Key words marking command arguments. Default {@link DEFAULT_SHELL_ARG_KEYS}. */
  shellArgKeys?: readonly string[];
  /** Longest command scanned; a longer one is blocked (`shell.too_long`). Default 1 MiB of text. */
  shellMaxLength?: number;
  /** Most strings scanned in one call. Default {@link DEFAULT_MAX_ARG_STRINGS}. */
  maxStrings?: number;
  /** Deepest nesting of arrays and objects scanned. Default {@link DEFAULT_MAX_ARG_DEPTH}. */
  maxDepth?: number;
  /**
   * Block what the scan could not finish: arguments over `maxStrings` or
   * `maxDepth` (rules `tool_args.too_many_strings`, `tool_args.too_deep`), and
   * a scan that times out (a slow `url.resolve`) or throws. Default true; false
   * reports them as warnings and lets the call run.
   */
  failClosed?: boolean;
  /** Budget of one scan, DNS included. Default: the stage's (500 ms). */
  timeoutMs?: number;
  /** Default `block` (the seed's tool scans always blocked). */
  action?: GuardrailAction;
}

/** A string found in a call's arguments, with the key it sits under. */
export interface ArgString {
  /** Dotted path, e.g. `requests.0.url`. */
  path: string;
  /** Last word of the nearest key (`imageUrl` → `url`), lower-case. */
  keyWord: string;
  value: string;
}

/** What {@link argStrings} found, and which limit stopped it, if any. */
export interface ArgStrings {
  strings: ArgString[];
  /** Set when some of the arguments were not looked at. */
  overflow?: 'strings' | 'depth';
}

/**
 * Every string in `args`, with its key; numbers too under URL keys (a
 * client may build `http://${n}` from `2130706433`). Stops at `maxStrings`
 * strings and does not enter containers deeper than `maxDepth`, and says so
 * (an empty container that deep hides nothing and is not reported).
 */
export function argStrings(
  args: unknown,
  limits: { maxStrings?: number; maxDepth?: number } = {},
): ArgStrings {
  const walker = new ArgWalker(
    limits.maxStrings ?? DEFAULT_MAX_ARG_STRINGS,
    limits.maxDepth ?? DEFAULT_MAX_ARG_DEPTH,
  );
  walker.walk(args, '', '');
  const { strings, overflow } = walker;
  return overflow ? { strings, overflow } : { strings };
}

/**
 * The recursion of {@link argStrings}. The depth of the container being
 * walked is kept on the walker (one per call, in place of a closure) so
 * `walk` takes only what changes per value.
 */
class ArgWalker {
  readonly strings: ArgString[] = [];
  overflow: ArgStrings['overflow'];
  private depth = 0;

  constructor(
    private readonly maxStrings: number,
    private readonly maxDepth: number,
  ) {}

  walk(value: unknown, path: string, keyWord: string): void {
    if (this.overflow === 'strings') return;
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' && URL_KEY_WORDS.has(keyWord)
          ? String(value)
          : undefined;
    if (text !== undefined) {
      if (this.strings.length >= this.maxStrings) this.overflow = 'strings';
      else this.strings.push({ path, keyWord, value: text });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (this.depth >= this.maxDepth) {
      if (!isEmpty(value)) this.overflow ??= 'depth';
      return;
    }
    this.depth++;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) this.walk(value[i], join(path, String(i)), keyWord);
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) this.walk(record[key], join(path, key), lastWord(key));
    }
    this.depth--;
  }
}

/**
 * Checks a call's URL and command arguments. One finding per offending
 * argument; the blocked call's result is `Tool blocked: <reason>`.
 */
export function toolArgsGuardrail(options: ToolArgsGuardrailOptions = {}): Guardrail<ToolScanSubject> {
  const policy = options.url;
  const failClosed = options.failClosed ?? true;
  const rules: ArgRules = {
    options,
    failClosed,
    shellKeys: new Set(options.shellArgKeys ?? DEFAULT_SHELL_ARG_KEYS),
    isShellTool: shellToolPredicate(options.shellTools ?? DEFAULT_SHELL_TOOLS),
    shellLimits: { maxLength: options.shellMaxLength },
    policy,
    // Only a `resolve` makes a URL check wait; without one the scan returns synchronously.
    resolving: policy !== false && policy?.resolve !== undefined,
  };
  return {
    name: 'tool_args',
    action: options.action ?? 'block',
    failClosed,
    timeoutMs: options.timeoutMs,
    scan(subject, context) {
      return new ArgScan(rules, subject, context).scanFrom(0);
    },
  };
}

/** What a {@link toolArgsGuardrail} checks with, settled once when it is made. */
interface ArgRules {
  readonly options: ToolArgsGuardrailOptions;
  readonly failClosed: boolean;
  readonly shellKeys: ReadonlySet<string>;
  readonly isShellTool: (toolName: string) => boolean;
  readonly shellLimits: { maxLength?: number };
  readonly policy: UrlPolicy | false | undefined;
  readonly resolving: boolean;
}

/**
 * One call's scan: its argument strings and the findings so far. The one
 * object a scan adds (in place of a checking closure), so the steps take
 * only the string they are at.
 */
class ArgScan {
  private readonly strings: readonly ArgString[];
  private readonly findings: GuardrailFinding[];
  private readonly shell: boolean;

  constructor(
    private readonly rules: ArgRules,
    { toolName, args }: ToolScanSubject,
    private readonly context: GuardrailScanContext,
  ) {
    const { strings, overflow } = argStrings(args, rules.options);
    this.strings = strings;
    this.findings = overflow ? [overflowFinding(overflow, rules.options, rules.failClosed)] : [];
    this.shell = rules.isShellTool(toolName);
  }

  /**
   * Checks the strings from `from` on, in order, synchronously until a URL
   * check has to wait (DNS); the rest then follow it.
   */
  scanFrom(from: number): GuardrailFinding[] | Promise<GuardrailFinding[]> {
    const { strings, findings } = this;
    for (let i = from; i < strings.length; i++) {
      const arg = strings[i]!;
      const verdict = this.check(arg);
      if (verdict instanceof Promise) {
        return verdict.then((v) => {
          if (!v.ok) findings.push(argFinding(v, arg.path));
          return this.scanFrom(i + 1);
        });
      }
      if (verdict && !verdict.ok) findings.push(argFinding(verdict, arg.path));
    }
    return findings;
  }

  /** Checks one string as a command (pushing its finding) and returns its URL verdict, if it is a URL. */
  private check({ path, keyWord, value }: ArgString): UrlVerdict | Promise<UrlVerdict> | undefined {
    const { rules } = this;
    if (this.shell && rules.shellKeys.has(keyWord)) {
      const verdict = checkShell(value, rules.shellLimits);
      if (!verdict.ok) this.findings.push(argFinding(verdict, path));
    }
    const { policy } = rules;
    if (policy === false) return undefined;
    const url = urlToCheck(value, URL_KEY_WORDS.has(keyWord));
    if (url === undefined) return undefined;
    return rules.resolving ? checkUrl(url, policy, this.context.signal) : inspectUrl(url, policy);
  }
}

function argFinding(verdict: { rule: string; reason: string }, path: string): GuardrailFinding {
  return { rule: verdict.rule, reason: `${verdict.reason} (argument "${path}")` };
}

function isEmpty(value: object): boolean {
  if (Array.isArray(value)) return value.length === 0;
  for (const _ in value) return false;
  return true;
}

function shellToolPredicate(tools: NonNullable<ToolArgsGuardrailOptions['shellTools']>) {
  if (tools === false) return () => false;
  if (typeof tools === 'function') return tools;
  return (name: string) => tools.includes(name);
}

function overflowFinding(
  overflow: 'strings' | 'depth',
  options: ToolArgsGuardrailOptions,
  failClosed: boolean,
): GuardrailFinding {
  const finding =
    overflow === 'strings'
      ? {
          rule: 'tool_args.too_many_strings',
          reason: `Arguments hold more than ${options.maxStrings ?? DEFAULT_MAX_ARG_STRINGS} strings; the rest were not scanned`,
        }
      : {
          rule: 'tool_args.too_deep',
          reason: `Arguments nest deeper than ${options.maxDepth ?? DEFAULT_MAX_ARG_DEPTH} levels; the deeper ones were not scanned`,
        };
  return failClosed ? finding : { ...finding, action: 'warn' };
}

/**
 * The URL a string stands for, or `undefined` when it is not one. The string
 * is first read as the WHATWG parser reads it. Under a URL key every value
 * counts: `scheme:…` as given (a special scheme even without `//`), a
 * scheme-less one as a client that adds `http://` would fetch it
 * (`169.254.169.254/x`, `localhost:8080`, `//host`, `\\host`); relative paths
 * do not. Elsewhere only `scheme://…` values and ones that parse as a special
 * scheme's URL count — text such as `Note: …` or `https: is safer` does not.
 */
function urlToCheck(value: string, urlKey: boolean): string | undefined {
  const text = urlParserInput(value);
  if (text === '') return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  if (scheme) {
    const rest = text.slice(scheme[0].length);
    const special = SPECIAL_SCHEMES.has(scheme[1]!.toLowerCase());
    if (urlKey && (special || !/^\d/.test(rest))) return text;
    if (!urlKey && rest.startsWith('//')) return text;
    if (!urlKey) return special && parses(text) ? text : undefined;
  }
  if (!urlKey) return undefined;
  // With an http(s) base, `//host`, `\\host`, `/\host` and `///host` all name a host.
  if (/^[/\\]{2}/.test(text)) return `http:${text}`;
  if (/^[/\\.#?]/.test(text)) return undefined;
  return `http://${text}`;
}

function parses(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** Words of keys seen so far: argument keys repeat call after call, the regexes run once per key. */
const lastWord = memoized(splitLastWord, 1000);

function splitLastWord(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words[words.length - 1] ?? '';
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
