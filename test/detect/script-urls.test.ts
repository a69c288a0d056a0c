// The script addresses an inline loader inserts (src/detect/script-urls.ts): the forms the classic
// tag snippets write, the strings that are data and must stay data, and linear time on a text built
// to make the reader work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SCRIPT_URLS, scriptUrls } from '../../src/detect/script-urls.ts';

const urls = (js: string) => scriptUrls(js).map((u) => u.url);

test('the loaders of the classic snippets: an absolute, scheme-relative or run-time-host address ending in .js', () => {
  assert.deepEqual(
    urls(
      `var ga = document.createElement('script'); ga.src = ('https:' == document.location.protocol ? 'https://ssl' : 'http://www') + '.google-analytics.com/ga.js';
       gads.src = (useSSL ? "https:" : "http:") + "//www.googletagservices.com/tag/js/gpt.js";
       s.src = 'https://securepubads.g.doubleclick.net/tag/js/gpt.js?network=123';
       document.write(unescape("%3Cscript src='" + gaJsHost + "google-analytics.com/ga.js' type='text/javascript'%3E%3C/script%3E"));
       a.src = '/cdn-cgi/challenge-platform/scripts/jsd/main.js';`,
    ),
    [
      '.google-analytics.com/ga.js',
      '//www.googletagservices.com/tag/js/gpt.js',
      'https://securepubads.g.doubleclick.net/tag/js/gpt.js?network=123',
      'google-analytics.com/ga.js',
      '/cdn-cgi/challenge-platform/scripts/jsd/main.js',
    ],
  );
});

test('an address without .js counts when it is assigned to a src or passed to a script loader', () => {
  assert.deepEqual(
    urls(
      `js.src = '//c.go-mpulse.net/boomerang/' + account;
       d.src = ["//secure-us.imrworldwide.com/cgi-bin/m?ci=us-400338h&cg=0&cc=1&si=", escape(window.location.href)].join('');
       el.setAttribute('src', "https://widgets.example-vendor.net/embed?id=9");
       jQuery.getScript("//cdn.sendpulse.com/28edd3380a1c17cf65b137fe96516659/js/push/23fc4af694e1db7721_1");
       document.write('<script src="http://ib.adnxs.com/ttj?id=1028479&size=300x600"><\\/script>');`,
    ),
    [
      '//c.go-mpulse.net/boomerang/',
      '//secure-us.imrworldwide.com/cgi-bin/m?ci=us-400338h&cg=0&cc=1&si=',
      'https://widgets.example-vendor.net/embed?id=9',
      '//cdn.sendpulse.com/28edd3380a1c17cf65b137fe96516659/js/push/23fc4af694e1db7721_1',
      'http://ib.adnxs.com/ttj?id=1028479&size=300x600',
    ],
  );
});

test('JSON-style escapes are undone: "http:\\/\\/cdn.gigya.com\\/JS\\/gigya.js"', () => {
  assert.deepEqual(urls(`var deps = [{ "src": "http:\\/\\/cdn.gigya.com\\/JS\\/gigya.js?apiKey=2_bk" }];`), ['http://cdn.gigya.com/JS/gigya.js?apiKey=2_bk']);
});

test('data stays data: links, images, endpoints, bare names and words are not script addresses', () => {
  assert.deepEqual(
    urls(
      `var share = { url: "https://www.facebook.com/sharer/sharer.php?u=x", image: "https://s3.amazonaws.com/bucket/photo.jpg" };
       var api = 'https://api.example-vendor.com/v2/events'; var logo = "//cdn.example-vendor.com/logo.svg";
       var lib = "jquery.min.js"; var t = 'text/javascript'; var p = '/about/team'; var v = 'v1.2.3/';
       if (a.indexOf("/cdn-cgi/l/email-protection") > -1) {} var mimeSrcType = 'application/x-javascript';`,
    ),
    [],
  );
});

test('every text is read in one linear pass, and at most MAX_SCRIPT_URLS addresses are kept', () => {
  const many = `x.src='//cdn.example.net/a.js';`.repeat(MAX_SCRIPT_URLS + 50);
  assert.equal(scriptUrls(many).length, MAX_SCRIPT_URLS);
  // Adversarial: quotes everywhere, long runs that almost look like hosts, src names before each.
  for (const hostile of [
    `src='${'a.'.repeat(200_000)}`,
    `'`.repeat(400_000),
    `src="//${'a'.repeat(3000)}.js" `.repeat(120),
    `'${'a-'.repeat(100_000)}.com/`,
    `src = '${'/'.repeat(300_000)}`,
  ]) {
    const started = performance.now();
    scriptUrls(hostile);
    assert.ok(performance.now() - started < 500, `${hostile.slice(0, 20)}…: ${Math.round(performance.now() - started)} ms`);
  }
});

test('comments load nothing: //, /* */ and a line opened by <!--, as JavaScript reads them; the code on the next line runs', () => {
  assert.deepEqual(
    urls(
      `// s.src = '//www.googletagservices.com/tag/js/gpt.js';
       /* ga.src = 'https://ssl.google-analytics.com/ga.js'; */
       <!-- removed 2022-06: <script src="https://maps.googleapis.com/maps/api/js">
       x(); // old: js.src = "//c.go-mpulse.net/boomerang/" + key;
       s.src = "https://sb.scorecardresearch.com/beacon.js"; //-->`,
    ),
    ['https://sb.scorecardresearch.com/beacon.js'],
  );
});
