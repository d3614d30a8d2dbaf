/**
 * Durations as people read them: "45 s", "3 min 20 s", "2 h 05 min", "3 d 4 h". Pure, so the
 * queue's refusals and the CLI's lines say a time the same way.
 */

/** A duration in milliseconds in words, to the second below an hour and coarser above it. */
export function humanDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
