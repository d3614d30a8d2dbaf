/**
 * The dashboard's own rule for a loopback bind address (its Host check uses it too), for the
 * `--insecure-local` check. A file of its own: dashboard-wiring.ts loads express and friends
 * lazily, and this check must not pull them in.
 */
export { isLoopback } from '../../dashboard/security.js';
