/** "1 request", "2 requests": counts in what people read. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
