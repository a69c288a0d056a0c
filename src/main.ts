// CLI entry: `stacklens serve | migrate | seed | import | refresh | eval | detect | observe | clients | plans | keys |
// credits | users | lists | crm | mcp | backup | restore`. The commands are loaded after the early
// start (cli/early-start.ts) has run: static imports all load before any module runs, and
// loading the commands takes the first two seconds of `npm start`, which the embedded
// database's creation now runs beside.
import './cli/early-start.ts';

await import('./cli/program.ts');
