import type { RegisterCommands } from '../host.js';

/** Registers the chatbot commands (placeholder until its issue lands). */
export const registerChatbotCommands: RegisterCommands = () => {};
