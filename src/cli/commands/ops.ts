import type { RegisterCommands } from '../host.js';

/** Registers the ops commands (placeholder until its issue lands). */
export const registerOpsCommands: RegisterCommands = () => {};
