#!/usr/bin/env node
// Copies what tsc does not emit (SQL migrations, the web console's static files) into dist/ after a build.
import { cpSync } from 'node:fs';
cpSync('src/db/migrations', 'dist/db/migrations', { recursive: true });
cpSync('src/console', 'dist/console', { recursive: true });
