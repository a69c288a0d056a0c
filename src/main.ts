// CLI entry. The commands (cli/program.ts) are loaded after cli/early-start.ts has run: ES
// modules imported statically are all loaded before any of them runs, and loading the
// server's modules takes seconds that the embedded database can spend starting.
import './cli/early-start.ts';

await import('./cli/program.ts');
