import type { RegisterCommands } from '../host.js';

/** Registers the tables commands (placeholder until its issue lands). */
export const registerTablesCommands: RegisterCommands = () => {};
