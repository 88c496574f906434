/**
 * The tool-call guardrail: finds the URLs and shell/code strings in a call's
 * arguments and checks them ({@link checkUrl}, {@link checkShell}).
 *
 * URLs: every string under a key whose last word is url/uri/href/endpoint/link
 * (`url`, `imageUrl`, `base_url`, `links[]`), and any other string that is an
 * absolute `scheme://` or `file:` URL. Commands: strings under code / command /
 * commands / script / cmd keys of the tools named in `shellTools`.
 * @module
 */
import { checkShell } from './shell-check.js';
import type { Guardrail, GuardrailAction, GuardrailFinding, ToolScanSubject } from './types.js';
import { checkUrl, type UrlPolicy } from './url-check.js';

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
const MAX_DEPTH = 6;
const MAX_STRINGS = 500;

/** Options of {@link toolArgsGuardrail}. */
export interface ToolArgsGuardrailOptions {
  /** URL policy, or `false` to skip URL checks. Default: http(s) to public hosts only. */
  url?: UrlPolicy | false;
  /** Tools whose command arguments are scanned: names, or a predicate. `false` skips shell checks. */
  shellTools?: readonly string[] | ((toolName: string) => boolean) | false;
  /** Key words marking command arguments. Default {@link DEFAULT_SHELL_ARG_KEYS}. */
  shellArgKeys?: readonly string[];
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

/** Every string in `args` (depth and count bounded), with its key. */
export function argStrings(args: unknown): ArgString[] {
  const out: ArgString[] = [];
  const walk = (value: unknown, path: string, keyWord: string, depth: number) => {
    if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof value === 'string') out.push({ path, keyWord, value });
    else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) walk(value[i], join(path, String(i)), keyWord, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) walk(v, join(path, key), lastWord(key), depth + 1);
    }
  };
  walk(args, '', '', 0);
  return out;
}

/**
 * Checks a call's URL and command arguments. One finding per offending
 * argument; the blocked call's result is `Tool blocked: <reason>`.
 */
export function toolArgsGuardrail(options: ToolArgsGuardrailOptions = {}): Guardrail<ToolScanSubject> {
  const shellKeys = new Set(options.shellArgKeys ?? DEFAULT_SHELL_ARG_KEYS);
  const shellTools = options.shellTools ?? DEFAULT_SHELL_TOOLS;
  const isShellTool =
    shellTools === false
      ? () => false
      : typeof shellTools === 'function'
        ? shellTools
        : (name: string) => shellTools.includes(name);
  const policy = options.url;
  return {
    name: 'tool_args',
    action: options.action ?? 'block',
    async scan({ toolName, args }) {
      const findings: GuardrailFinding[] = [];
      const shell = isShellTool(toolName);
      for (const { path, keyWord, value } of argStrings(args)) {
        if (shell && shellKeys.has(keyWord)) {
          const verdict = checkShell(value);
          if (!verdict.ok)
            findings.push({ rule: verdict.rule, reason: `${verdict.reason} (argument "${path}")` });
        }
        if (policy === false) continue;
        const url = urlToCheck(value, URL_KEY_WORDS.has(keyWord));
        if (url === undefined) continue;
        const verdict = await checkUrl(url, policy);
        if (!verdict.ok)
          findings.push({ rule: verdict.rule, reason: `${verdict.reason} (argument "${path}")` });
      }
      return findings;
    },
  };
}

/**
 * The URL a string stands for, or `undefined` when it is not one. Under a URL
 * key a scheme-less value counts too (`169.254.169.254/latest`, `//host`);
 * relative paths do not. Elsewhere only `scheme://…` and `file:` values count.
 */
function urlToCheck(value: string, urlKey: boolean): string | undefined {
  const text = value.trim();
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(text) || /^file:/i.test(text)) return text;
  if (!urlKey || text === '') return undefined;
  if (text.startsWith('//')) return `http:${text}`;
  if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) return text;
  if (/^[./#?]/.test(text)) return undefined;
  return `http://${text}`;
}

function lastWord(key: string): string {
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
