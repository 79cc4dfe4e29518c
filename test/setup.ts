/**
 * Test set-up. Under CI the fast-check properties run with a fixed seed, so a
 * submission's CI run is reproducible and cannot fail on a counterexample that
 * the change did not introduce; local runs draw a new seed each time and keep
 * exploring (a failure prints its seed for replay).
 */
import fc from 'fast-check';

// The kernel's debug mode (width checks, declared seq writes; docs/kernel.md):
// on in every test, off by default in the CLI and the bench.
process.env.ICEMU_DEBUG = '1';

if (process.env.CI) fc.configureGlobal({ seed: 20261121 });
