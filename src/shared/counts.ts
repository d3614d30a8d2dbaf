/**
 * How every count reads in what people read (the CLI's lines, the summaries, the pages): thousands
 * grouped with commas, as en-US writes them, and the noun agreeing with its number.
 */

/**
 * 12,345. Why not toLocaleString: its first call in a process sets up ICU's number formatting,
 * about 15 ms of CPU in every command that prints a count, for a format this simple.
 */
export const count = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');

/** "1 request", "2,000 requests"; `many` for a noun whose plural is not the singular plus "s" ("1 entry", "2 entries"). */
export const plural = (n: number, word: string, many = `${word}s`): string => `${count(n)} ${Math.round(n) === 1 ? word : many}`;
