// Imported first by main.ts, so this runs before the rest of the CLI loads: `serve` in demo mode
// on the embedded database (what `npm start` runs) starts the database now (store/embedded-early.ts).
// Only then: in demo mode serve goes on to open it whatever the configuration says, so the
// database is never left half-created by a start that stops on a configuration error.
import { loadConfig } from '../config.ts';
import { startEmbeddedEarly } from '../store/embedded-early.ts';

const args = process.argv.slice(2);
if (args.length === 0 || (args.length === 1 && args[0] === 'serve')) {
  try {
    const config = loadConfig();
    if (!config.databaseUrl && config.mode === 'demo') startEmbeddedEarly(config.dataDir);
  } catch {
    // serve reports the configuration error itself
  }
}
