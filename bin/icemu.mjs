#!/usr/bin/env node
// The installed `icemu` command: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../harness/cli.ts');
