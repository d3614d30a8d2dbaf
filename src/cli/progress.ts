/**
 * Progress bars on stderr when it is a TTY and --json is off; a silent no-op otherwise, so
 * scripts and schedulers get clean, machine-readable output.
 */
import cliProgress from 'cli-progress';
import { wantsProgress, type CliIo } from './io.js';

export interface ProgressBars {
  /** Updates (creating on first use) the bar called `name`. */
  update(name: string, value: number, total: number): void;
  /** Stops drawing (before the result is printed); the release stack stops them too, on every path. */
  stop(): Promise<void>;
}

const NO_BARS: ProgressBars = { update: () => {}, stop: async () => {} };

export function createProgressBars(io: CliIo, json: boolean | undefined): ProgressBars {
  if (!wantsProgress(io, json)) return NO_BARS;
  const multi = new cliProgress.MultiBar(
    {
      stream: io.stderr,
      format: ' {name} [{bar}] {value}/{total} {percentage}% · {duration_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  const stop = io.releases.push('progress bars', () => multi.stop());
  return {
    update(name, value, total) {
      let bar = bars.get(name);
      if (!bar) {
        bar = multi.create(Math.max(total, 1), 0, { name: name.padEnd(8) });
        bars.set(name, bar);
      }
      bar.setTotal(Math.max(total, value, 1));
      bar.update(value);
    },
    stop,
  };
}
