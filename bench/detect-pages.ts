// The pages the detector benchmarks read: the labelled fixture sites, their pages padded to a
// realistic home-page size (50-100 KB of menus, product cards, links, images and text, inserted
// before </body>), with their headers, cookies, DNS records and job posts. Deterministic (fixed
// seed), so bench/detect.ts and bench/detect-outputs.ts read the same pages in every checkout.
import { toSiteArtifacts } from '../src/detect/artifacts.ts';
import { readFixtures } from '../src/eval/detect.ts';
import type { SiteArtifacts } from '../src/detect/types.ts';

const words =
  'platform team customers growth secure reliable insights pricing enterprise support integrations analytics workflow cloud data product features partners resources careers'.split(
    ' ',
  );

export function paddedFixtureSites(minKb = 50, maxKb = 100): SiteArtifacts[] {
  let seed = 7;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const sentence = () => Array.from({ length: 8 + Math.floor(rand() * 14) }, () => words[Math.floor(rand() * words.length)]).join(' ');

  /** Markup shaped like a real home page body: navigation, cards with images and links, long copy. */
  function padding(bytes: number): string {
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < bytes; i++) {
      const block =
        i % 3 === 0
          ? `<nav class="mega-menu"><ul>${Array.from({ length: 8 }, (_, k) => `<li class="menu-item menu-item-${k}"><a href="/solutions/${words[k]}-${i}">${sentence().slice(0, 24)}</a></li>`).join('')}</ul></nav>`
          : i % 3 === 1
            ? `<div class="card product-card" data-id="${i}"><img src="/assets/img/product-${i}.webp" alt="${sentence().slice(0, 30)}" loading="lazy" width="320" height="240"><h3 class="card__title">${sentence().slice(0, 40)}</h3><p class="card__text">${sentence()}</p><a class="btn btn-primary" href="/products/${i}">Learn more</a></div>`
            : `<section class="content-block" style="padding:48px 0"><h2>${sentence().slice(0, 50)}</h2><p>${sentence()}. ${sentence()}. ${sentence()}.</p><p>${sentence()}.</p></section>`;
      parts.push(block);
      size += block.length;
    }
    return parts.join('\n');
  }

  return readFixtures().map((f) => {
    const site = toSiteArtifacts(f.artifact);
    const target = (minKb + rand() * (maxKb - minKb)) * 1024;
    for (const page of site.pages) {
      if (!page.html) continue;
      const pad = padding(Math.max(0, target - page.html.length));
      page.html = page.html.replace('</body>', `${pad}\n</body>`);
    }
    return site;
  });
}
