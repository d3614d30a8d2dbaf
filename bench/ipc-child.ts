/**
 * A bench's side of a helper process it forks (a simulator, so that the simulator's CPU is not
 * the bench's): messages are `{ type, … }` objects both ways, and a question is answered by the
 * next message of the same type.
 */
import { fork } from 'node:child_process';

export interface IpcChild<From extends { type: string }, To extends { type: string }> {
  /** The next message of `type` (rejected if the process exits first). */
  next<T extends From['type']>(type: T): Promise<Extract<From, { type: T }>>;
  /** Sends `message` and waits for the answer of the same type. */
  ask<T extends From['type'] & To['type']>(message: Extract<To, { type: T }>): Promise<Extract<From, { type: T }>>;
  send(message: To): void;
  /** Sends `close` (if still running) and waits until the process is gone. */
  close(closeMessage: To): Promise<void>;
}

/** Forks `modulePath` with `args` (and Node options `execArgv`), stdout ignored and stderr shared. */
export function forkIpcChild<From extends { type: string }, To extends { type: string }>(
  modulePath: string,
  args: readonly string[],
  execArgv: readonly string[] = [],
): IpcChild<From, To> {
  const child = fork(modulePath, [...args], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [...execArgv] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T extends From['type']>(type: T): Promise<Extract<From, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: From): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Extract<From, { type: T }>);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error(`${modulePath} exited (${child.exitCode})`)));
    });
  const send = (message: To): void => void child.send(message);
  return {
    next,
    ask(message) {
      const answer = next(message.type);
      send(message);
      return answer;
    },
    send,
    async close(closeMessage) {
      if (child.exitCode === null && child.connected) send(closeMessage);
      await exited;
    },
  };
}
