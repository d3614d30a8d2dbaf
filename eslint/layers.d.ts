import type { Linter } from 'eslint';

/** Flat-config blocks: one per folder with its import restrictions, the process rule, and no barrels. */
export function layerBlocks(): Linter.Config[];
