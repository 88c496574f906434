/**
 * `PartialJsonReader`: one JSON value read as its text arrives, each
 * character once, by the incremental parser of `@streamparser/json`. What
 * it has read so far only ever grows (see {@link PartialJsonReader.json}).
 * @module
 */
import { JSONParser, type ParsedElementInfo } from '@streamparser/json';

type Container = Record<string | number, unknown>;

// Longer than the longest stretch after which the parser reports no open value (`\uABC`: 5).
const ONE_AT_A_TIME = 8;

/** The member being written: a string still open, or a number that may take more digits. */
interface OpenMember {
  parent: Container;
  key: string | number;
  value: string | number;
}

/**
 * Reads the first JSON object or array in a text fed to it in pieces. Text
 * before the first `{` or `[` (prose, a code fence) is skipped, and text
 * after the value closes is ignored. Text that stops being JSON ends the
 * reading: what was read before it stays the value.
 */
export class PartialJsonReader {
  private parser: JSONParser | undefined;
  private root: Container | undefined;
  private open: OpenMember | undefined;
  private state: 'seeking' | 'reading' | 'done' | 'failed' = 'seeking';
  /** Counts changes to what was read, so an unchanged value is not serialised again. */
  private changes = 0;

  /** Whether the value has closed or the text stopped being JSON: later text changes nothing. */
  get settled(): boolean {
    return this.state === 'done' || this.state === 'failed';
  }

  /** How many times what was read has changed: equal counts mean the same {@link json}. */
  get version(): number {
    return this.changes;
  }

  write(text: string): void {
    if (this.settled || !text) return;
    let chunk = text;
    if (!this.parser) {
      const start = chunk.search(/[[{]/);
      if (start < 0) return;
      chunk = chunk.slice(start);
      this.parser = this.createParser();
      this.state = 'reading';
    }
    const parser = this.parser;
    try {
      // The parser reports an open string or number only where a piece ends on a whole character
      // or digit, not inside `\u00e9` or after `1e`. Its last characters go one at a time, so
      // the value shown is that of the last such point however the text was cut.
      const body = Math.max(0, chunk.length - ONE_AT_A_TIME);
      if (body > 0) parser.write(chunk.slice(0, body));
      for (let i = body; i < chunk.length && !this.settled; i++) parser.write(chunk.charAt(i));
    } catch {
      // Not JSON from here on (a comment, a trailing comma, text after the value in the same piece):
      // keep what was read.
      if (this.state === 'reading') this.state = 'failed';
      this.changes++;
    }
  }

  /**
   * What was read so far as JSON text, or `undefined` before the value
   * starts. Members appear once their value's type is known; a key still
   * being written and a `true` / `false` / `null` not yet whole are left
   * out, an open string shows what arrived of it and a number its digits so
   * far. So each result extends the one before: nothing shown disappears or
   * changes type. Costs one serialisation of the value.
   */
  json(): string | undefined {
    const root = this.root;
    if (!root) return undefined;
    const open = this.open;
    if (!open) return JSON.stringify(root);
    // The open member is shown in place for the one serialisation, then taken out again.
    const had = Object.getOwnPropertyDescriptor(open.parent, open.key);
    Object.defineProperty(open.parent, open.key, {
      value: open.value,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      return JSON.stringify(root);
    } finally {
      if (had) Object.defineProperty(open.parent, open.key, had);
      else if (Array.isArray(open.parent)) open.parent.length = Number(open.key);
      else delete open.parent[open.key];
    }
  }

  private createParser(): JSONParser {
    const parser = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
    parser.onValue = (info) => this.onValue(info);
    return parser;
  }

  private onValue({ value, key, parent, stack, partial }: ParsedElementInfo): void {
    this.changes++;
    if (stack.length === 0) {
      // The value closed: it is whole, and what follows it (a closing fence, prose) is not read.
      this.root = value as Container;
      this.open = undefined;
      this.state = 'done';
      return;
    }
    // The parser builds the value in place: the outermost container, then everything inside it.
    this.root ??= (stack.length > 1 ? stack[1]?.value : parent) as Container;
    // Whole values are already in their parent. Of the partial ones only strings and numbers are shown
    // (a number only while its digits form one: `1.` and `1e` send nothing, so `1` stays shown);
    // a literal half written, or a key, is left out.
    const growing = partial && (typeof value === 'string' || typeof value === 'number');
    this.open = growing ? { parent: parent as Container, key: key as string | number, value } : undefined;
  }
}
