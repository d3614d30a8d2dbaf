/** `fleet show`: the applied fleet as a fleet file, which `fleet diff` reads back as no changes. */
import { stringify } from 'yaml';
import type { Fleet } from './fleet-model.js';

export function fleetYaml(fleet: Fleet, applied: boolean): string {
  const header = applied
    ? '# The fleet applied to this installation (listing-sync fleet show); paths are absolute.\n'
    : '# No fleet has been applied to this installation yet.\n';
  return header + stringify(fleet, { lineWidth: 0 });
}
