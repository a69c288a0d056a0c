// Vendor domains in the built-in catalog: a vendor is found by its own domain. Every technology of
// one vendor names the same vendorDomain, no two vendors share one, and it is the registrable
// domain of one of the vendor's technologies' websites (or a listed, explained exception) — so a
// vendor is never filed under a sibling product's domain (ActiveCampaign under postmarkapp.com).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtInCatalog, coreCatalog } from '../../src/detect/catalog.ts';
import { buildCatalog } from '../../src/ingest/seed/catalog.ts';
import { SCALES } from '../../src/ingest/seed/scale.ts';

/** Vendors whose own domain hosts none of their catalogued technologies, and why. */
const OWN_DOMAIN_EXCEPTIONS: Record<string, string> = {
  'meta.com': 'Meta Platforms; its products live on facebook.com, react.dev and docusaurus.io',
  'snap.com': 'Snap Inc.; its pixel is documented on snapchat.com',
  'reddit.com': 'Reddit; its pixel is documented on its help site, reddithelp.com',
  'automattic.com': 'Automattic; WordPress.com, WooCommerce, Jetpack and Parse.ly each have their own site',
  'employinc.com': 'Employ Inc.; Lever, JazzHR and Jobvite each have their own site',
  'block.xyz': 'Block, Inc.; Square, Weebly and Afterpay each have their own site',
  'sinch.com': 'Sinch; Mailgun and Mailjet each have their own site',
  'openjsf.org': 'the OpenJS Foundation; Node.js, Express, jQuery and Lodash each have their own site',
  'cncf.io': 'the Cloud Native Computing Foundation; Kubernetes, Prometheus and Envoy each have their own site',
  'moodle.com': 'Moodle Pty Ltd; the open-source Moodle lives on moodle.org',
  'ssctech.com': 'SS&C Technologies; Advent keeps advent.com',
  'varnish-software.com': 'Varnish Software; the open-source Varnish Cache lives on varnish-cache.org',
  'cloud.com': 'Cloud Software Group; TIBCO, Spotfire, Jaspersoft and Citrix each keep their own site',
  'idera.com': 'Idera; TestRail, Ranorex and Xray each keep their own site',
  'nemetschek.com': 'the Nemetschek Group; Graphisoft and Bluebeam each keep their own site',
  'canonical.com': 'Canonical; Ubuntu lives on ubuntu.com',
  'epicgames.com': 'Epic Games; Unreal Engine lives on unrealengine.com',
  'trimble.com': 'Trimble; SketchUp lives on sketchup.com',
  'zloirock.ru': "core-js's author (Denis Pushkarev, named in its copyright); the project itself lives on github.com",
};

// Second-level labels under which a registrable domain has three labels (example.co.uk).
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu']);
const registrable = (host: string) => {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const n = labels.length >= 3 && labels.at(-1)!.length === 2 && SECOND_LEVEL.has(labels.at(-2)!) ? 3 : 2;
  return labels.slice(-n).join('.');
};

const catalog = builtInCatalog();
const byVendor = new Map<string, typeof catalog.technologies>();
for (const t of catalog.technologies) byVendor.set(t.vendor, [...(byVendor.get(t.vendor) ?? []), t]);

test('every technology of one vendor names the same vendor domain, and no two vendors share one', () => {
  const owner = new Map<string, string>();
  for (const [vendor, techs] of byVendor) {
    const domains = [...new Set(techs.map((t) => t.vendorDomain))];
    assert.equal(domains.length, 1, `${vendor}: its technologies name ${domains.join(', ')} (one vendor, one domain: the vendor's own)`);
    const taken = owner.get(domains[0]!);
    assert.equal(taken, undefined, `${domains[0]} is the domain of both ${taken} and ${vendor}`);
    owner.set(domains[0]!, vendor);
  }
});

test("a vendor's domain is the registrable domain of one of its technologies' websites, or a listed exception", () => {
  const used = new Set<string>();
  for (const [vendor, techs] of byVendor) {
    const domain = techs[0]!.vendorDomain;
    const sites = techs.map((t) => registrable(new URL(t.website!).hostname));
    if (sites.includes(domain)) {
      assert.equal(
        OWN_DOMAIN_EXCEPTIONS[domain],
        undefined,
        `${domain} (${vendor}) is listed as an exception but hosts ${techs[0]!.name}: drop it from the list`,
      );
      continue;
    }
    assert.ok(
      OWN_DOMAIN_EXCEPTIONS[domain],
      `${vendor}: vendor domain ${domain} is none of its technologies' sites (${sites.join(', ')}); fix vendorDomain or website, or list it with a reason`,
    );
    used.add(domain);
  }
  assert.deepEqual(
    Object.keys(OWN_DOMAIN_EXCEPTIONS).filter((d) => !used.has(d)),
    [],
    'exceptions no vendor needs any more',
  );
});

test('the demo world files every vendor under the domain its technologies name', () => {
  const world = buildCatalog('stacklens', SCALES.M, coreCatalog().technologies); // the core catalog, as the demo world draws it
  for (const v of world.vendors) {
    const domain = byVendor.get(v.name)![0]!.vendorDomain;
    assert.equal(v.domain, domain, `${v.name}`);
  }
  const active = world.vendors.find((v) => v.name === 'ActiveCampaign')!;
  assert.equal(active.domain, 'activecampaign.com');
  assert.deepEqual(
    world.products
      .filter((p) => p.vendorId === active.id)
      .map((p) => p.name)
      .sort(),
    ['ActiveCampaign', 'Postmark'],
  );
});
