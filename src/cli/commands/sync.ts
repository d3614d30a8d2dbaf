import type { RegisterCommands } from '../host.js';

/** Registers the sync commands (placeholder until its issue lands). */
export const registerSyncCommands: RegisterCommands = () => {};
