/** Reads the first bytes of a stream for sniffing, then replays them ahead of the rest. */

export interface Peeked {
  readonly head: Uint8Array;
  readonly chunks: AsyncIterable<Uint8Array>;
}

/** Buffers chunks until `minBytes` are read or the stream ends; the returned `chunks` yields everything once. */
export async function peekBytes(source: AsyncIterable<Uint8Array>, minBytes: number): Promise<Peeked> {
  const iterator = source[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < minBytes) {
    const next = await iterator.next();
    if (next.done === true) {
      done = true;
      break;
    }
    held.push(next.value);
    size += next.value.length;
  }
  async function* replay(): AsyncGenerator<Uint8Array> {
    try {
      yield* held;
      held.length = 0;
      if (done) return;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        yield next.value;
      }
    } finally {
      // Why: a consumer that stops early (an error, a break) must release the file handle / socket.
      if (!done) await iterator.return?.();
    }
  }
  return { head: Buffer.concat(held), chunks: replay() };
}
