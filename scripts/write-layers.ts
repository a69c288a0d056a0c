// Writes the layering of src/ (test/layers.ts) where people read it: the table of
// CONTRIBUTING.md ("Architecture") and each folder's README.md. test/architecture.test.ts
// fails when they differ from the data.   npm run docs:layers
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FOLDER_AREAS, folderReadme, layersTable, TABLE_BEGIN, TABLE_END } from '../test/layers.ts';

const root = resolve(import.meta.dirname, '..');
const contributing = join(root, 'CONTRIBUTING.md');
const text = readFileSync(contributing, 'utf8');
const begin = text.indexOf(TABLE_BEGIN),
  end = text.indexOf(TABLE_END);
if (begin < 0 || end < begin) throw new Error(`CONTRIBUTING.md: the markers ${TABLE_BEGIN} … ${TABLE_END} are missing`);
writeFileSync(contributing, `${text.slice(0, begin + TABLE_BEGIN.length)}\n${layersTable()}\n${text.slice(end)}`);
for (const area of FOLDER_AREAS) writeFileSync(join(root, 'src', area.name, 'README.md'), folderReadme(area));
console.log(`CONTRIBUTING.md and ${FOLDER_AREAS.length} folder READMEs written`);
