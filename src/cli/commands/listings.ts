import type { RegisterCommands } from '../host.js';

/** Registers the listings commands (placeholder until its issue lands). */
export const registerListingsCommands: RegisterCommands = () => {};
