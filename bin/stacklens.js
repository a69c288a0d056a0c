#!/usr/bin/env node
// The `stacklens` command: runs the TypeScript entry through tsx's loader.
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
