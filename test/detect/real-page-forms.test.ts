// The forms real sites write their tags in (test/fixtures/real-pages, 2013-2024 news and publishing
// pages): each case is a trace a saved page carried, cut to the tag, that the detector once missed
// or took for something else. The measurement on the whole set is `stacklens eval detect`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalog } from '../../src/detect/catalog.ts';
import { detect } from '../../src/detect/detect.ts';
import type { Detection } from '../../src/detect/types.ts';

const catalog = loadCatalog();
const doc = (head: string, body = '') => `<!doctype html><html><head><title>t</title>${head}</head><body><p>Hello</p>${body}</body></html>`;
const found = (html: string): Detection[] => detect({ domain: 'news.example', pages: [{ url: 'https://www.news.example/story', html }] }, catalog);
const names = (html: string) => found(html).map((d) => d.name);

test('a verification meta tag left empty is no token: only one with a value names the account', () => {
  const empty = doc('<meta name="google-site-verification" content="" /><meta name="msvalidate.01" content=" " />');
  assert.deepEqual(names(empty), []);
  const filled = doc(
    '<meta name="google-site-verification" content="Jm2bJ0v8yW0Cq3fZk8bQe1n3b7Tq9xQm4Zc2w1aPp0E" /><meta name="msvalidate.01" content="4F1A0C2B9D8E7F6A5B4C3D2E1F0A9B8C" />',
  );
  assert.deepEqual(names(filled).sort(), ['Bing Webmaster Tools', 'Google Search Console']);
});

test("Ensighten's tag loader (nexus.ensighten.com/<account>/Bootstrap.js) is not the Bootstrap framework; Bootstrap's own files are", () => {
  assert.deepEqual(names(doc('<script src="//nexus.ensighten.com/turner/money-prod/Bootstrap.js"></script>')), ['Ensighten']);
  for (const href of [
    '/static/css/bootstrap.min.css',
    'https://www.spiceworks.com/wp-content/plugins/wp-custom-blogs/js/bootstrap.min.js?ver=1.2',
    'https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js',
    '/assets/js/bootstrap.js',
    '/theme/css/bootstrap.css',
  ])
    assert.ok(names(doc(`<script src="${href}"></script>`)).includes('Bootstrap'), href);
});

test('Google Publisher Tag: gpt.js from either of its hosts, and the command queue a page calls into', () => {
  for (const src of ['//www.googletagservices.com/tag/js/gpt.js', 'https://securepubads.g.doubleclick.net/tag/js/gpt.js'])
    assert.ok(names(doc(`<script async src="${src}"></script>`)).includes('Google Publisher Tag'), src);
  assert.ok(
    names(doc('', '<script>googletag.cmd.push(function() { googletag.pubads().setTargeting("section", "news"); });</script>')).includes('Google Publisher Tag'),
  );
  // Campaign Manager's activity path is another product's.
  assert.ok(
    !names(doc('', '<img src="https://ad.doubleclick.net/ddm/activity/src=2542116;type=gblog;cat=a;ord=1?" width="1" height="1">')).includes(
      'Google Publisher Tag',
    ),
  );
});

test('Comscore: beacon.js from b. or sb., its streaming plugins, and its pixel over http or https', () => {
  for (const head of [
    '<script async src="http://b.scorecardresearch.com/beacon.js"></script>',
    '<script src="https://sb.scorecardresearch.com/c2/plugins/streamingtag_plugin_jwplayer.js"></script>',
  ])
    assert.ok(names(doc(head)).includes('Comscore'), head);
  for (const pixel of [
    '<noscript> <img src="http://b.scorecardresearch.com/p?c1=2&amp;c2=21229662&amp;cv=2.0&amp;cj=1"> </noscript>',
    '<noscript><img src="//b.scorecardresearch.com/b?c1=2&amp;c2=6036385&amp;c3=" /></noscript>',
    '<img src="https://sb.scorecardresearch.com/p?c1=2&c2=3005617&cv=2.0&cj=1" />',
  ])
    assert.ok(names(doc('', pixel)).includes('Comscore'), pixel);
  // A hint to its host, or its tag quoted as text, is not use.
  assert.deepEqual(
    names(
      doc(
        '<link rel="dns-prefetch" href="//b.scorecardresearch.com">',
        '<noscript>&lt;img src="http://b.scorecardresearch.com/p?c1=2&amp;c2=6770184" /&gt;</noscript>',
      ),
    ),
    [],
  );
});

test('Quantcast: quant.js and aquant.js from any of its hosts, and its pixel', () => {
  assert.ok(names(doc('<script src="http://pixel.quantserve.com/aquant.js?a=p-D1yc5zQgjmqr5" async></script>')).includes('Quantcast Measure'));
  for (const pixel of [
    '<noscript><div style="display:none;"><img src="//pixel.quantserve.com/pixel/p-15e4OSeaAUAF6.gif" border="0" height="1" width="1" alt="Quantcast"/></div></noscript>',
    '<div style="display:none;"><img src="https://pixel.quantserve.com/pixel?a.1=p-0f0nSqEQ_DwA6&amp;a.2=p-31f3D02tYU8zY" border="0"></div>',
  ])
    assert.ok(names(doc('', pixel)).includes('Quantcast Measure'), pixel);
  assert.deepEqual(names(doc('<link rel="dns-prefetch" href="http://pixel.quantserve.com/">')), []);
});

test("Sailthru: the Horizon script, its sailthru.* content meta tags (either attribute order), and its WordPress plugin's stylesheet", () => {
  assert.ok(names(doc('<script async src="http://ak.sail-horizon.com/horizon/v1.js"></script>')).includes('Sailthru'));
  for (const meta of ['<meta name="sailthru.title" content="The 21 best movies of 2017" />', '<meta value="2016-11-28 16:23:00 -0500" name="sailthru.date">'])
    assert.ok(names(doc(meta)).includes('Sailthru'), meta);
  assert.ok(
    names(
      doc(
        '<link rel="stylesheet" id="sailthru-subscribe-widget-styles-css" href="https://pagesix.com/wp-content/plugins/sailthru-wordpress-plugin/css/widget.subscribe.css?ver=5.9.3">',
      ),
    ).includes('Sailthru'),
  );
  // A hint to its host is not use.
  assert.deepEqual(names(doc('<link rel="dns-prefetch" href="https://ak.sail-horizon.com/spm/spm.v1.min.js">')), []);
});

test("Cloudflare: the site's own /cdn-cgi/ paths (email obfuscation, its scripts) are written by Cloudflare in front of it", () => {
  for (const body of [
    '<script data-cfasync="false" src="/cdn-cgi/scripts/5c5dd728/cloudflare-static/email-decode.min.js"></script>',
    '<span class="__cf_email__" data-cfemail="7f141b1e09161b0c10113f0f1013160b161c10511c10">[email&#160;protected]</span>',
    '<a href="http://www.dmagazine.com/cdn-cgi/l/email-protection#e69483858396928f89888f9592a6828b">Email</a>',
    '<script>for(i=0;i<l.length;i++){try{a=l[i].getAttribute("href");if(a&&a.indexOf("/cdn-cgi/l/email-protection") > -1 && (a.length > 28)){}}catch(e){}}</script>',
  ])
    assert.ok(names(doc('', body)).includes('Cloudflare'), body);
});

test('Google Analytics: the classic ga.js command queue, _gaq', () => {
  assert.ok(
    names(doc('', "<script>var _gaq = _gaq || []; _gaq.push(['_setAccount', 'UA-12345-1']); _gaq.push(['_trackPageview']);</script>")).includes(
      'Google Analytics',
    ),
  );
  // Inside a longer identifier it is not the queue.
  assert.deepEqual(names(doc('', '<script>var my_gaqueue = [];</script>')), []);
});

test('a loader in an inline script: the address it inserts is read as the script it loads', () => {
  const cases: Array<[string, string]> = [
    [
      "var _gaq = []; (function() { var ga = document.createElement('script'); ga.src = ('https:' == document.location.protocol ? 'https://ssl' : 'http://www') + '.google-analytics.com/ga.js'; })();",
      'Google Analytics',
    ],
    [
      "var gptScript = document.createElement('script'); gptScript.async = 'async'; gptScript.src = '//www.googletagservices.com/tag/js/gpt.js';",
      'Google Publisher Tag',
    ],
    [
      'var s = document.createElement("script"); s.src = (document.location.protocol == "https:" ? "https://sb" : "http://b") + ".scorecardresearch.com/beacon.js";',
      'Comscore',
    ],
    ['js.id = "boomr-if-as"; js.src = "//c.go-mpulse.net/boomerang/" + "VQUZM-ZM9PY-YXUX2-SMCUL-QHMKQ";', 'Akamai mPulse'],
    ['$.ajax({dataType:"script",cache:true,url:"//ak.sail-horizon.com/horizon/v1.js"});', 'Sailthru'],
  ];
  for (const [js, name] of cases) {
    const d = found(doc('', `<script>${js}</script>`)).find((x) => x.name === name);
    assert.ok(d, name);
    assert.equal(d.evidence[0]!.source, 'script');
    assert.match(d.evidence[0]!.ruleId, /\/scriptSrc\/\d+$/);
  }
  // The same address as data (JSON, a string in a code sample, a comment) is not a load.
  assert.deepEqual(
    names(
      doc(
        '',
        `<script type="application/json">{"src": "//www.googletagservices.com/tag/js/gpt.js"}</script>
         <pre><code>&lt;script&gt;s.src = '//c.go-mpulse.net/boomerang/' + key;&lt;/script&gt;</code></pre>
         <!-- <script>ga.src = 'https://ssl.google-analytics.com/ga.js';</script> -->`,
      ),
    ),
    [],
  );
});

test("a tag's fallback pixel: an <img> inside <noscript>, or one pixel in size, is read by the address rules as markup", () => {
  const cases: Array<[string, string]> = [
    [
      '<noscript><div><img src="//secure-us.imrworldwide.com/cgi-bin/m?ci=us-805310h&amp;cg=0&amp;cc=1&amp;ts=noscript" width="1" height="1" alt=""/></div></noscript>',
      'Nielsen DCR',
    ],
    ['<img src="//ib.adnxs.com/seg?add=7103559&amp;t=2" width="1" height="1" />', 'Xandr'],
    ['<noscript><img src="http://logc2.xiti.com/hit.xiti?s=43260&s2=56&p=pixels"></noscript>', 'Piano Analytics'],
  ];
  for (const [markup, name] of cases) {
    const d = found(doc('', markup)).find((x) => x.name === name);
    assert.ok(d, name);
    assert.equal(d.evidence[0]!.source, 'html');
    assert.match(d.evidence[0]!.excerpt, /^<img /);
  }
  // The tag quoted as text inside <noscript>, or a picture of normal size from the vendor's host, is not a pixel.
  assert.deepEqual(
    names(
      doc(
        '',
        `<noscript>&lt;img src="//secure-us.imrworldwide.com/cgi-bin/m?ci=us-1" /&gt;</noscript>
         <img src="https://ib.adnxs.com/seg?add=1" width="300" height="250">`,
      ),
    ),
    [],
  );
});

test("a link to a path of the site itself is read by links rules: Cloudflare's email protection", () => {
  const d = found(doc('', '<a href="/cdn-cgi/l/email-protection#c8f7bbbdaaa2adabbcf59ca0adedfaf88e8981849">Email us</a>')).find((x) => x.name === 'Cloudflare');
  assert.ok(d);
  assert.equal(d.evidence[0]!.ruleId, 'Cloudflare/links/0');
  // A path that names another host is not an account there.
  assert.deepEqual(names(doc('', '<a href="/to/calendly.com/acme/30min">local</a> <a href="/go/jobs.lever.co/acme">jobs</a>')), []);
});

test('ad, analytics and widget tags in the forms news sites load them', () => {
  const cases: Array<[string, string]> = [
    ['<script src="//c.amazon-adsystem.com/aax2/amzn_ads.js"></script>', 'Amazon Advertising'],
    ['<script async src="https://aax.amazon-adsystem.com/e/dtb/bid?src=3030&amp;u=https%3A%2F%2Fwww.nytimes.com"></script>', 'Amazon Advertising'],
    ['<script async src="http://rtax.criteo.com/delivery/rta/rta.js?netId=4157&amp;cookieName=crtg_trnr"></script>', 'Criteo'],
    ['<script src="http://pagead2.googlesyndication.com/pagead/show_ads.js"></script>', 'Google AdSense'],
    ['<script id="async-buttons" src="http://w.sharethis.com/button/async-buttons.js"></script>', 'ShareThis'],
    ['<iframe src="https://securepubads.g.doubleclick.net/gampad/adx?iu=/4216/USW.LTG&amp;sz=1x1" width="1" height="1"></iframe>', 'Google Ad Manager'],
    ['<iframe id="ob_iframe" src="https://widgets.outbrain.com/widgetOBUserSync/obUserSync.html#pid=5142"></iframe>', 'Outbrain'],
    ['<link rel="preload" href="https://use.typekit.net/af/9ff5df/0000000000000000000131a3/27/l?primer=7cdcb44be4a7" as="font">', 'Adobe Fonts'],
    ['<script>(function(d){var e={kitId:"abc1def"},a=d.createElement("script");a.src="//use.typekit.net/"+e.kitId+".js";})(document);</script>', 'Adobe Fonts'],
    [
      '<form class="mc-embedded-subscribe-form" action="//wired.us8.list-manage.com/subscribe/post-json?u=d6a9b4ef731bfa16b27259de6&amp;id=62b9" method="post"></form>',
      'Mailchimp',
    ],
    ['<a href="https://macrumors.us5.list-manage.com/subscribe?u=7d0106b433773bd0aef5828e0&amp;id=3989954cde">Newsletter</a>', 'Mailchimp'],
    ['<link rel="stylesheet" href="https://pagesix.com/wp-content/mu-plugins/jetpack-10.9/_inc/social-logos/social-logos.min.css?ver=10.9">', 'Jetpack'],
    ['<img class="size-full wp-image-686639 jetpack-lazy-image" src="https://thoughtcatalog.com/wp-content/uploads/2016/12/a.jpg">', 'Jetpack'],
    ['<script src="http://admin.brightcove.com/js/BrightcoveExperiences.js"></script>', 'Brightcove'],
    ['<iframe id="snap810713" src="https://tr.snapchat.com/cm/i?pid=32a4892a-7a98-44df-b23b-7ed05a1b1f6f"></iframe>', 'Snap Pixel'],
    ['<iframe src="https://consentcdn.cookiebot.com/sdk/bc-v4.min.html"></iframe>', 'Cookiebot'],
    ['<link rel="preload" href="https://sas5huyoim.kameleoon.io/engine.js" as="script">', 'Kameleoon'],
    ['<button class="optanon-toggle-display c-footer__link">Manage cookies</button>', 'OneTrust'],
    ['<script async src="http://ad.crwdcntrl.net/5/c=1859/pe=y/callback=_nw2e.closures.c0"></script>', 'Lotame'],
    ['<script src="https://as-sec.casalemedia.com/headertag/?v=9&amp;fn=cygnus_index_parse_res&amp;s=167943"></script>', 'Index Exchange'],
    ['<script async src="http://s.moatads.com/sfgate883iFkm77/moatcontent.js"></script>', 'Moat'],
    ['<script src="http://cdn.gigya.com/js/socialize.js?apiKey=2_COh26GgfZDptreu0iQ9aknzT"></script>', 'SAP Customer Data Cloud'],
    ['<script>var pbjs = {}; pbjs.bids = [{"bidder":"openx","params":{"delDomain":"meredith-d.openx.net","unit":"561381928"}}];</script>', 'OpenX'],
    ['<div data-rc-widget="" data-widget-host="habitat" data-endpoint="//trends.revcontent.com" data-widget-id="32191"></div>', 'Revcontent'],
    ['<a href="https://docs.google.com/forms/d/e/1FAIpQLSfLW30xgZodF1qRAg80oWEGuDpW-1HHaL0g42G3SmvB2f4lCw/viewform">Feedback</a>', 'Google Forms'],
    ['<a href="https://prf.hn/click/camref:1101liUFf/ar:247Sports/destination:https://www.example.com">Shop</a>', 'Partnerize'],
    ['<a href="http://app.readspeaker.com/cgi-bin/rsent?customerid=5841&amp;lang=en_us&amp;readid=text">Listen</a>', 'ReadSpeaker'],
    ['<script>jQuery.getScript("//cdn.sendpulse.com/28edd3380a1c17cf65b137fe96516659/js/push/23fc4af694e1db7721_1.js");</script>', 'SendPulse'],
    ['<iframe scrolling="no" src="https://eb2.3lift.com/sync?us_privacy=1NNN&amp;"></iframe>', 'TripleLift'],
    ['<link rel="preload" as="script" href="//go.ezodn.com/hb/dall.js?b=amx,ix">', 'Ezoic'],
    ['<script src="//cloudfront.loggly.com/js/loggly.tracker-latest.min.js"></script>', 'Loggly'],
    ['<script src="//www.spot.im/embed/modules/launcher/bundle.js?module=messages-count"></script>', 'OpenWeb'],
    ['<a href="http://www.surveygizmo.com/s3/2094311/Firefox-Family-Tertiary-Navigation">Survey</a>', 'Alchemer'],
  ];
  for (const [markup, name] of cases) assert.ok(names(doc('', markup)).includes(name), `${name}: ${markup}`);
  // The vendors' own pages linked from an article are mentions.
  assert.deepEqual(
    names(
      doc(
        '',
        `<a href="https://docs.google.com/forms/about/">Google Forms</a> <a href="https://prf.hn/">Partnerize</a>
         <a href="https://www.surveygizmo.com/pricing/">SurveyGizmo</a> <a href="https://mailchimp.com/">Mailchimp</a>`,
      ),
    ),
    [],
  );
});

test('pixels are read in linear time: a page of <img tags with no end, or of pixels past the cap', () => {
  for (const hostile of [
    `<noscript>${'<img src="//pixel.quantserve.com/pixel/p-1.gif" width="1" '.repeat(20_000)}`,
    '<img'.repeat(100_000),
    `<noscript>${'<img height=1 src=//b.scorecardresearch.com/p?c1=2>'.repeat(20_000)}</noscript>`,
  ]) {
    const started = performance.now();
    found(hostile);
    assert.ok(performance.now() - started < 2000, `${hostile.slice(0, 30)}…: ${Math.round(performance.now() - started)} ms`);
  }
});
