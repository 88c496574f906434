/**
 * The shell tokenizer of the command scanner: text becomes one flat list of
 * words and operators, grouped into simple commands, in a single
 * left-to-right pass that looks at each character once — so tokenizing costs
 * time linear in the command's length whatever its shape. Internal: not part
 * of the public API.
 * @module
 */

/** Counts the scanner's work, so a test can prove it grows linearly with the input. */
export interface ScanMeter {
  steps: number;
}

const WORD = 0;
const BLANK = 1;
const OPERATOR = 2;

// Character classes of ASCII; everything else is a word character. Blanks
// include the commas and brackets of code that shells out
// (`subprocess.run(["rm", "-rf", "/"])`), so its arguments are words too.
const CLASS = new Uint8Array(128);
for (const c of ' \t\r\f\v,[]') CLASS[c.charCodeAt(0)] = BLANK;
for (const c of ';&|\n(){}<>`') CLASS[c.charCodeAt(0)] = OPERATOR;

const DOLLAR = 36;
const OPEN_PAREN = 40;

// Two-character operators as numbers (first code * 128 + second), so telling
// `&&` from `&` costs no string.
const TWO_CHAR_OPERATORS = new Set(
  ['$(', '<(', '>(', '&&', '||', '|&', '>>', '>|', ';;'].map((op) => pairCode(op, 0)),
);

/**
 * The tokens of a command text. Simple commands are runs of words; command
 * `c` has the words `tokens[bounds[3c + 1] .. bounds[3c + 2])`, preceded by
 * the operators `tokens[bounds[3c] .. bounds[3c + 1])`.
 */
export interface ShellTokens {
  /** Words and operators (`|`, `&&`, `$(`, `(` …), in order. */
  tokens: string[];
  /** Three indices per simple command: where its operators start, where its words start and end. */
  bounds: number[];
  /** The meter the tokenizing counted on; the rules reading the tokens count on it too. */
  meter: ScanMeter;
}

/** Tokenizes `source`, a command whose quotes and backslashes the caller has dropped. */
export function shellTokens(source: string, meter: ScanMeter): ShellTokens {
  meter.steps += source.length;
  const tokens: string[] = [];
  const bounds: number[] = [];
  let inCommand = false;
  let i = 0;
  while (i < source.length) {
    const kind = classAt(source, i);
    if (kind === WORD) {
      const start = i;
      do i++;
      while (i < source.length && classAt(source, i) === WORD);
      // A new command's operators start where the previous command's words end.
      if (!inCommand) bounds.push(bounds.length === 0 ? 0 : bounds[bounds.length - 1]!, tokens.length, 0);
      inCommand = true;
      tokens.push(source.slice(start, i));
    } else if (kind === OPERATOR) {
      if (inCommand) bounds[bounds.length - 1] = tokens.length;
      inCommand = false;
      const length = TWO_CHAR_OPERATORS.has(pairCode(source, i)) ? 2 : 1;
      tokens.push(source.slice(i, i + length));
      i += length;
    } else {
      i++;
    }
  }
  if (inCommand) bounds[bounds.length - 1] = tokens.length;
  return { tokens, bounds, meter };
}

function classAt(source: string, i: number): number {
  const code = source.charCodeAt(i);
  if (code >= 128) return WORD;
  if (code === DOLLAR) return source.charCodeAt(i + 1) === OPEN_PAREN ? OPERATOR : WORD;
  return CLASS[code]!;
}

/** The characters at `i` and `i + 1` as one number (`NaN` past the end). */
function pairCode(text: string, i: number): number {
  return text.charCodeAt(i) * 128 + text.charCodeAt(i + 1);
}
