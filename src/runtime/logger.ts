/**
 * The one pino logger factory. Secrets are redacted by path (auth headers, credential config
 * fields, Redis URLs with passwords) so that no code path has to remember to leave them out.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { createScrubber } from '../shared/secret-scrub.js';

export type { Logger };

/** Paths pino censors wherever they appear in a log object (up to two levels of nesting). */
export const REDACT_PATHS: readonly string[] = [
  'secretKey',
  'sessionKey',
  'projectAuthToken',
  'redisPassword',
  'password',
  'token',
  'authorization',
  'Authorization',
  'customauth',
  'chatrobot-sessionkey',
  'headers.authorization',
  'headers.Authorization',
  'headers.customauth',
  'headers["chatrobot-sessionkey"]',
  '*.secretKey',
  '*.sessionKey',
  '*.projectAuthToken',
  '*.redisPassword',
  '*.password',
  '*.token',
  '*.authorization',
  '*.Authorization',
  '*.customauth',
  '*["chatrobot-sessionkey"]',
  '*.headers.authorization',
  '*.headers.customauth',
  '*.headers["chatrobot-sessionkey"]',
  'config.credentials',
  'credentials',
];

export interface LoggerSettings {
  level?: string;
  /** Where log lines go; stderr by default so that stdout stays machine-readable. */
  destination?: DestinationStream;
  /** Extra values to scrub from any serialised log line (the configured secret values). */
  secretValues?: readonly string[];
}

/** Creates the process logger. Logs go to stderr unless a destination is given. */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    redact: { paths: [...REDACT_PATHS], censor: '[redacted]' },
    base: undefined,
  };
  const destination = settings.destination ?? pino.destination({ fd: 2, sync: true });
  const scrubber = createScrubber(settings.secretValues ?? []);
  // Why always, even with no secret configured: one registered later (a webhook URL) is scrubbed too.
  // Why: redaction by path cannot catch a secret that leaked into a message string or an
  // unexpected field (an error echoing a header, a Redis URL with a password). The line is JSON,
  // so the scrubber looks for the secrets' escaped forms too (src/shared/secret-scrub.ts).
  const scrubbing: DestinationStream = { write: (line: string) => void destination.write(scrubber.text(line)) };
  return pino(options, scrubbing);
}

/** A logger that drops everything (tests, library use). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
