/** Running the CLI in-process for tests: main() with console output captured. */
import { vi } from 'vitest';
import { main } from '../../harness/cli.ts';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Run `icemu <argv>` through main(); stdout and stderr lines are collected, not printed. */
export async function icemu(argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await main(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
