import type { RegisterCommands } from '../host.js';

/** Registers the sim commands (placeholder until its issue lands). */
export const registerSimCommands: RegisterCommands = () => {};
