import type { RegisterCommands } from '../host.js';

/** Registers the queue commands (placeholder until its issue lands). */
export const registerQueueCommands: RegisterCommands = () => {};
