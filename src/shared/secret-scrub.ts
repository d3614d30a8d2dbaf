/**
 * THE one scrubber: every writer of text the tool stores or shows (the logger, the API client's
 * errors, a job's failure before BullMQ stores it, the CLI's stdout and stderr) passes it through
 * one of these, built from the configured secret values.
 *
 * Why the encoded forms: a secret rarely leaks as itself. A service quoting a request puts it in
 * a JSON string (escaped `"`, `\`, maybe `\u00e9`), a log line is JSON again (escaped twice when
 * it quotes a stored failure), a URL carries it percent-encoded, a header echo carries it in
 * base64 (an HTTP basic credential), and a page shows it HTML-escaped. Each form is looked for.
 */

/** What a secret is replaced with, in every form. */
export const REDACTED = '[redacted]';

/** Shorter values are not scrubbed: they would match ordinary words and numbers everywhere. */
export const MIN_SECRET_LENGTH = 4;

export interface Scrubber {
  /** `text` with every form of every secret replaced by [redacted]. */
  text(text: string): string;
  /**
   * The same thrown value with its message, stack, string details and causes scrubbed, in place
   * (its class and fields stay, so classification by code still works). Returns it for `throw`.
   */
  error<T>(thrown: T): T;
  /** Whether the scrubber knows any secret now (false: `text` is the identity; a registered secret makes it true). */
  readonly active: boolean;
}

function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** JSON escaping with every non-ASCII character as \uXXXX (what ASCII-only JSON writers emit). */
function asciiJson(text: string, upper: boolean): string {
  return jsonInner(text).replace(/[\u0080-\uffff]/g, (ch) => {
    const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

function htmlEscaped(text: string): string[] {
  const base = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [base.replace(/"/g, '&quot;').replace(/'/g, '&#39;'), base.replace(/"/g, '&#34;').replace(/'/g, '&#x27;')];
}

/**
 * The base64 text that stands for `secret` whatever bytes come before it: for each of the three
 * alignments, only the characters made of the secret's bits alone (the edges mix in neighbours).
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let lead = 0; lead < 3; lead += 1) {
    const padded = Buffer.concat([Buffer.alloc(lead), bytes]);
    const encoded = padded.toString('base64');
    const firstBit = lead * 8;
    const endBit = (lead + bytes.length) * 8;
    const from = Math.ceil(firstBit / 6);
    const to = Math.floor(endBit / 6);
    const core = encoded.slice(from, to);
    if (core.length >= MIN_SECRET_LENGTH) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** Every form of one secret that a stored or shown text may hold. */
export function secretForms(secret: string): string[] {
  const once = jsonInner(secret);
  const forms = [
    secret,
    once,
    jsonInner(once),
    asciiJson(secret, false),
    asciiJson(secret, true),
    jsonInner(asciiJson(secret, false)),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    new URLSearchParams({ v: secret }).toString().slice(2),
    encodeURI(secret),
    ...htmlEscaped(secret),
    ...base64Forms(secret),
  ];
  return forms.filter((form) => form.length >= MIN_SECRET_LENGTH);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Depth to which an error's causes (and AggregateError members) are scrubbed. */
const CAUSE_DEPTH = 5;

/**
 * Secrets this process learned after its scrubbers were made (a webhook URL read from Redis, or
 * typed as a flag). Why process-wide: such a secret must be scrubbed by every writer at once (the
 * logger, the CLI's streams, a job's failure), and those are built before it is known.
 */
const registered = new Set<string>();
let registrations = 0;

/** Makes every scrubber of this process (made before or after) scrub `secrets` too. */
export function registerSecrets(secrets: Iterable<string | undefined>): void {
  for (const value of secrets)
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH && !registered.has(value)) {
      registered.add(value);
      registrations += 1;
    }
}

function patternOf(values: readonly string[]): RegExp | undefined {
  if (values.length === 0) return undefined;
  // Longest first: a form that contains another is replaced whole, not left half-shown.
  const forms = [...new Set(values.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  return new RegExp(forms.map(escapeRegExp).join('|'), 'g');
}

/** A scrubber for `secrets` and every registered one (empty, short and repeated values are ignored). */
export function createScrubber(secrets: Iterable<string | undefined>): Scrubber {
  const own = [...new Set([...secrets].filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET_LENGTH))];
  let built = -1;
  let pattern: RegExp | undefined;
  const current = (): RegExp | undefined => {
    if (built !== registrations) {
      pattern = patternOf([...new Set([...own, ...registered])]);
      built = registrations;
    }
    return pattern;
  };
  const text = (input: string): string => {
    const now = input === '' ? undefined : current();
    return now === undefined ? input : input.replace(now, REDACTED);
  };

  function scrubValue(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth));
    if (value instanceof Error) return scrubError(value, depth);
    return value;
  }

  function scrubError(error: Error, depth: number): Error {
    if (depth > CAUSE_DEPTH) return error;
    setField(error, 'message', text(error.message));
    if (typeof error.stack === 'string') setField(error, 'stack', text(error.stack));
    const { details, cause, errors } = error as Error & { details?: unknown; cause?: unknown; errors?: unknown };
    if (typeof details === 'object' && details !== null && !Array.isArray(details)) {
      const clean: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(details)) clean[key] = scrubValue(value, depth + 1);
      setField(error, 'details', clean);
    }
    if (cause !== undefined) setField(error, 'cause', scrubValue(cause, depth + 1));
    if (Array.isArray(errors))
      setField(
        error,
        'errors',
        errors.map((item) => scrubValue(item, depth + 1)),
      );
    return error;
  }

  return {
    text,
    error: <T>(thrown: T): T => {
      if (thrown instanceof Error && current() !== undefined) scrubError(thrown, 0);
      return thrown;
    },
    get active() {
      return current() !== undefined;
    },
  };
}

/** Replaces a field even when it is a readonly own property, keeping whether it is enumerable. */
function setField(target: object, key: string, value: unknown): void {
  const enumerable = Object.getOwnPropertyDescriptor(target, key)?.enumerable ?? false;
  try {
    Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable });
  } catch {
    // A frozen error keeps its text; nothing the tool raises is frozen.
  }
}
