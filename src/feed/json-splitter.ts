/**
 * A streaming splitter for the two JSON feed shapes: a top-level array of records, or an OData
 * object whose "value" member is the array of records. It hands back each record's JSON text
 * as soon as the record closes, so a feed is never held whole; other top-level members (such
 * as "@odata.nextLink") are kept in `meta`.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

const isSpace = (code: number): boolean => code === 32 || code === 10 || code === 13 || code === 9;

export class JsonSplitError extends Error {}

/**
 * Where strings of `text` may end: `next(from)` is the position of the first quote or backslash
 * at or after `from`, or -1. The next backslash is remembered, so text with few or no escapes
 * is searched for them once, not once per string.
 */
function stringEnds(text: string): { next(from: number): number } {
  let backslash = -2;
  return {
    next(from) {
      if (backslash !== -1 && backslash < from) backslash = text.indexOf('\\', from);
      const quote = text.indexOf('"', from);
      if (backslash === -1) return quote;
      return quote === -1 || backslash < quote ? backslash : quote;
    },
  };
}

export class JsonArraySplitter {
  /** Top-level members other than the records array (OData: "@odata.nextLink", "@odata.count" …). */
  readonly meta: Record<string, unknown> = {};
  private shape: 'unknown' | 'array' | 'object' = 'unknown';
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Container depth of the records array once entered (1 for a plain array, 2 inside OData). */
  private recordsDepth = -1;
  private recordsClosed = false;
  private element: string[] = [];
  private elementOpen = false;
  /** Text of the current top-level object member ("key": value) while outside the records array. */
  private member = '';

  /** Feeds the next text chunk; `emit` receives each complete record's JSON text. */
  push(text: string, emit: (recordText: string) => void): void {
    let elementStart = this.elementOpen ? 0 : -1;
    let memberStart = this.collectingMember() ? 0 : -1;
    const strings = stringEnds(text);
    for (let i = 0; i < text.length; i++) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        // Why a jump: most of a feed's text is inside strings, and nothing in a string but its
        // closing quote or an escape matters here; the start of a sync waited on this loop.
        const stop = strings.next(i);
        if (stop < 0) break;
        i = stop;
        if (text.charCodeAt(stop) === BACKSLASH) this.escaped = true;
        else this.inString = false;
        continue;
      }
      const code = text.charCodeAt(i);
      if (this.shape === 'unknown') {
        if (isSpace(code) || code === 0xfeff) continue;
        if (code === OPEN_BRACKET) {
          this.shape = 'array';
          this.recordsDepth = 1;
        } else if (code === OPEN_BRACE) this.shape = 'object';
        else throw new JsonSplitError('expected a JSON array or an object with a "value" array');
        this.depth = 1;
        memberStart = this.shape === 'object' ? i + 1 : -1;
        continue;
      }
      if (this.depth === 0) {
        if (!isSpace(code)) throw new JsonSplitError('unexpected text after the end of the JSON document');
        continue;
      }
      const atRecords = this.depth === this.recordsDepth && !this.recordsClosed;
      if (atRecords && !this.elementOpen) {
        if (isSpace(code) || code === COMMA) continue;
        if (code === CLOSE_BRACKET) {
          this.depth--;
          this.recordsClosed = true;
          memberStart = i + 1;
          continue;
        }
        this.elementOpen = true;
        elementStart = i;
      } else if (atRecords && (code === COMMA || code === CLOSE_BRACKET)) {
        // A scalar record ends at the next separator (objects end at their closing brace below).
        this.element.push(text.slice(elementStart, i));
        this.finishElement(emit);
        elementStart = -1;
        if (code === CLOSE_BRACKET) {
          this.depth--;
          this.recordsClosed = true;
          memberStart = i + 1;
        }
        continue;
      }
      if (code === QUOTE) {
        this.inString = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        if (this.shape === 'object' && this.depth === 1 && code === OPEN_BRACKET && this.recordsDepth < 0) {
          const pending = this.member + text.slice(memberStart, i);
          if (/^\s*,?\s*"value"\s*:\s*$/.test(pending)) {
            this.member = '';
            memberStart = -1;
            this.depth = 2;
            this.recordsDepth = 2;
            continue;
          }
        }
        this.depth++;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.depth--;
        if (this.elementOpen && this.depth === this.recordsDepth) {
          this.element.push(text.slice(elementStart, i + 1));
          this.finishElement(emit);
          elementStart = -1;
        } else if (this.shape === 'object' && this.depth === 0) {
          this.finishMember(this.member + text.slice(memberStart, i));
          memberStart = -1;
        }
      } else if (this.shape === 'object' && this.depth === 1 && code === COMMA) {
        this.finishMember(this.member + text.slice(memberStart, i));
        memberStart = i + 1;
      } else if (code === COLON || isSpace(code)) {
        continue;
      }
    }
    if (this.elementOpen && elementStart >= 0) this.element.push(text.slice(elementStart));
    if (memberStart >= 0 && this.collectingMember()) this.member += text.slice(memberStart);
  }

  /** Characters held for the record or member not yet closed (bounded by the caller). */
  heldLength(): number {
    let total = this.member.length;
    for (const part of this.element) total += part.length;
    return total;
  }

  /** Call after the last chunk: a document that did not close was cut short. */
  end(): void {
    if (this.shape === 'unknown') throw new JsonSplitError('the file holds no JSON');
    if (this.depth !== 0 || this.inString) throw new JsonSplitError('the JSON ends before it is closed (truncated download?)');
    if (this.recordsDepth < 0) throw new JsonSplitError('the JSON object has no "value" array of records');
  }

  /** True while reading top-level object text that is not the records array. */
  private collectingMember(): boolean {
    return this.shape === 'object' && this.depth >= 1 && !(this.recordsDepth === 2 && !this.recordsClosed);
  }

  private finishElement(emit: (recordText: string) => void): void {
    const text = this.element.length === 1 ? (this.element[0] ?? '') : this.element.join('');
    this.element = [];
    this.elementOpen = false;
    emit(text);
  }

  private finishMember(text: string): void {
    this.member = '';
    if (text.trim() === '') return;
    try {
      Object.assign(this.meta, JSON.parse(`{${text}}`));
    } catch {
      throw new JsonSplitError(`a top-level member is not valid JSON: ${text.trim().slice(0, 80)}`);
    }
  }
}
