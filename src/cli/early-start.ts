// Imported first by main.ts, before the rest of the CLI loads: `serve` in demo mode on the
// embedded database (what `npm start` runs) starts the database now (db/embedded-early.ts), so
// creating a new data folder's database runs beside the loading of the server's modules. Demo
// mode only: there serve goes on to open the database whatever the configuration says, so a
// start that stops on a configuration error never leaves a database half-created.
import { loadConfig } from '../config.ts';
import { startEmbeddedEarly } from '../db/embedded-early.ts';

const args = process.argv.slice(2);
if (args.length === 0 || (args.length === 1 && args[0] === 'serve')) {
  try {
    const config = loadConfig();
    if (!config.databaseUrl && config.mode === 'demo') startEmbeddedEarly(config.dataDir);
  } catch {
    // serve reports the configuration error itself
  }
}
