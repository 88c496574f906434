/**
 * Text normalisation for pattern matching: the same phrase written with
 * fullwidth letters, look-alike Cyrillic or Greek letters, accents or
 * invisible characters matches as its plain form.
 * @module
 */

// Zero-width, bidi-control and other invisible code points that split words for
// a matcher while rendering as nothing.
const INVISIBLE =
  /\u034f|[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0]/g;

const MARKS = /\p{M}/gu;
const SPACES = /[\s\p{Z}]+/gu;

/**
 * Lower-case Cyrillic and Greek letters (and a few Latin variants) that look
 * like Latin letters, mapped to them. Uppercase forms are covered by
 * lower-casing first.
 */
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  ѵ: 'v',
  ԝ: 'w',
  х: 'x',
  у: 'y',
  ү: 'y',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ω: 'w',
  ı: 'i',
  ɡ: 'g',
  ʏ: 'y',
};

const CONFUSABLE_CHARS = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'g');

/**
 * Capitals folded before lower-casing: their lower-case forms look like other
 * letters (Greek `Ν` is N, but `ν` is v; Cyrillic `Н` is H, but `н` is n).
 */
const UPPER_CONFUSABLES: Readonly<Record<string, string>> = {
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
};

const UPPER_CONFUSABLE_CHARS = new RegExp(`[${Object.keys(UPPER_CONFUSABLES).join('')}]`, 'g');

/** Removes zero-width, bidi-control and other invisible characters. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * The form of `text` that phrase and pattern matchers see: invisible
 * characters removed, NFKC (fullwidth and other compatibility forms become
 * ASCII), diacritics stripped, lower-cased, Cyrillic/Greek look-alikes folded
 * to Latin, and every run of whitespace collapsed to one space.
 *
 * ```ts
 * normalizeForMatching('ＩＧＮＯＲＥ prev\u200bious іnstructions') // 'ignore previous instructions'
 * ```
 */
export function normalizeForMatching(text: string): string {
  return stripInvisible(text)
    .normalize('NFKC')
    .normalize('NFD')
    .replace(MARKS, '')
    .replace(UPPER_CONFUSABLE_CHARS, (c) => UPPER_CONFUSABLES[c] ?? c)
    .toLowerCase()
    .replace(CONFUSABLE_CHARS, (c) => CONFUSABLES[c] ?? c)
    .replace(SPACES, ' ')
    .trim();
}

/**
 * What a WHATWG URL parser — the one `fetch` and `new URL` use — reads of
 * `text`: leading and trailing C0 controls and spaces removed, then every
 * ASCII tab and newline removed wherever it is. So `'ht\ttp://127.0.0.1/'`
 * is `http://127.0.0.1/` to `fetch`, and a scanner deciding whether a string
 * is a URL must look at this form, not the raw one.
 */
export function urlParserInput(text: string): string {
  let start = 0;
  let end = text.length;
  // Loops, not /^\s+|\s+$/: an unanchored trailing-run pattern is quadratic on long inner runs.
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end).replace(/[\t\n\r]/g, '');
}
