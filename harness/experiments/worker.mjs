// Worker-thread entry of harness/experiments/runner.ts. Plain JavaScript so
// that it loads in any parent (tsx, bin/icemu.mjs, vitest): it registers
// tsx's ESM loader, as bin/icemu.mjs does, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
