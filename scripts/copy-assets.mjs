#!/usr/bin/env node
// Copies what tsc does not emit (SQL migrations) into dist/ after a build.
import { cpSync } from 'node:fs';
cpSync('src/store/migrations', 'dist/store/migrations', { recursive: true });
