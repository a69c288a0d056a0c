// Job phrases of the extended catalog (catalog/technologies/extended/): product names that are also
// English words or other trades (Harvest, Puppeteer, Playwright, Astronomer, Blender, Cilium, Pigment,
// Snorkel, Great Plains...) count only when the post names them as tools, never in the posts of a
// kitchen, a zoo, a theatre or a lab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';

const catalog = loadCatalog();
const names = (jobs: string[]) =>
  detect({ domain: 'example.com', pages: [], jobs }, catalog)
    .map((d) => d.name)
    .sort();

test('posts of other trades that use product names as ordinary words detect nothing', () => {
  const posts = [
    'Head Chef, Harvest Kitchen. Plan menus around the harvest, manage the pass and train commis chefs. Blender Operator experience in food production a plus.',
    'Zookeeper. Care for red pandas and the rhinoceros herd. Snorkel certification a plus for our aquarium rotation.',
    'Postdoctoral Astronomer. Study the timescale of stellar flares. The Astronomer will mentor students. Spinnaker sailing club on Fridays.',
    'Theatre company: Resident Playwright and Puppeteer wanted for our family season. The Puppeteer will build rod puppets.',
    'Lab Technician. Prepare reagents in flasks, run titrations. Understanding of Cilium biology helpful. Honeycomb panel samples are tested in the composites lab.',
    'Financial Analyst. Pigment and coatings industry experience a plus. Great Plains region travel allowance. Territory: Rust Belt.',
    'Investment Associate, Juniper Square portfolio. Relativity Space and Solace Women\u2019s Aid are among the causes we support.',
    'Security Guard. Check point duties at the main gate, key vault management, Vagrant outreach with the city.',
  ];
  assert.deepEqual(names(posts), []);
});

test('the same names in a stack are detected', () => {
  const stack =
    'Our stack: Harvest time tracking, Puppeteer tests, Snorkel AI, Apache Druid, Cilium CNI and Helm charts on EKS. Experience with Pigment and Anaplan, Blender and Maya, Dynamics GP.';
  const found = names([stack]);
  for (const name of ['Harvest', 'Puppeteer', 'Snorkel AI', 'Apache Druid', 'Cilium', 'Helm', 'Amazon EKS', 'Pigment', 'Blender', 'Microsoft Dynamics GP'])
    assert.ok(found.includes(name), `${name} in ${found.join(', ')}`);
});
