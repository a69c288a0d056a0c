// `stacklens eval [--fit]` and `stacklens eval ai`: the measurements of src/eval/ run from the
// command line. `eval` reads the configured database (a seeded demo world: it needs the
// hidden truth); `eval ai` builds a fresh world in memory, never the configured database,
// because it deletes evidence to hold it out. `eval detect` runs the technology detector on the
// labelled fixture set (no database) and exits 1 when a goal is missed, then on the labelled real pages (their goals are reported, not enforced). Each prints its figures with their goals.
import { evaluateListMatching, formatListsEval } from '../eval/lists.ts';
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withContext } from './context.ts';
import { openDb } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { evaluateIntelligence, NoTruthError, type IntelligenceEvalReport } from '../eval/intelligence.ts';
import { evaluateAi, type AiEvalReport } from '../eval/ai.ts';
import { evaluateLookalikes, formatLookalikesEval, LOOKALIKE_GOALS } from '../eval/lookalikes.ts';
import type { Calibration, ReliabilityBin } from '../eval/metrics.ts';
import { FEATURE_NAMES } from '../intelligence/confidence.ts';
import { INFERENCE_FEATURE_NAMES } from '../intelligence/peer-inference.ts';
import { PEOPLE_FEATURE_NAMES } from '../intelligence/people-match.ts';
import { evaluateDetector, formatDetectEval, GOALS as DETECT_GOALS, readFixtures, FIXTURES_FILE } from '../eval/detect.ts';
import { builtInCatalog, loadCatalog } from '../detect/catalog.ts';
import { evaluateWorld } from '../eval/detect-world.ts';
import { evaluateRealPages, REAL_PAGE_GOALS } from '../eval/detect-real.ts';
import { CHANGE_GOALS, evaluateChanges, type ChangesEvalReport } from '../eval/changes.ts';

export function registerEvalCommands(program: Command): void {
  const parent = program
    .command('eval')
    .description('Measure cohorts, competitors, in-use confidence and related products against the demo world truth')
    .option('--fit', 'also fit fresh confidence coefficients on this world and print them')
    .option('--sample <n>', 'companies sampled for the related-products measure', '300')
    .option('--threshold <share>', 'segment co-adoption share that makes a related product "truly co-adopted"', '0.3')
    .action(async (opts: { fit?: boolean; sample: string; threshold: string }) => {
      await withContext(async ({ db }) => {
        try {
          const r = await evaluateIntelligence(db, { fit: opts.fit, relatedSample: Number(opts.sample), coAdoptionThreshold: Number(opts.threshold) });
          console.log(formatIntelligenceEval(r));
        } catch (err) {
          if (!(err instanceof NoTruthError)) throw err;
          console.error(err.message);
          process.exitCode = 1;
        }
      });
    });

  parent
    .command('lookalikes')
    .description("Measure lookalikes against the demo world's hidden segments: from 5 seeds of a segment, precision@50 and recall@200 of its other members")
    .option('--seeds <n>', 'seeds per trial', '5')
    .option('--trials <n>', 'trials per segment', '2')
    .option('--segments <n>', 'the largest segments measured', '30')
    .action(async (opts: { seeds: string; trials: string; segments: string }) => {
      await withContext(async ({ db }) => {
        try {
          const r = await evaluateLookalikes(db, { seeds: Number(opts.seeds), trialsPerSegment: Number(opts.trials), maxSegments: Number(opts.segments) });
          console.log(formatLookalikesEval(r));
          if (r.precisionAt50 < LOOKALIKE_GOALS.precisionAt50 || r.recallAt200 < LOOKALIKE_GOALS.recallAt200) process.exitCode = 1;
        } catch (err) {
          if (!(err instanceof NoTruthError)) throw err;
          console.error(err.message);
          process.exitCode = 1;
        }
      });
    });

  parent
    .command('changes')
    .description("Measure the technology events and adoption trends of the demo world's past against its hidden truth of changes")
    .option('--products <n>', 'most used products whose monthly counts are compared', '15')
    .action(async (opts: { products: string }) => {
      await withContext(async ({ db, config }) => {
        try {
          const r = await evaluateChanges(db, { topProducts: Number(opts.products), staleAfterDays: config.detect.staleAfterDays });
          console.log(formatChangesEval(r));
        } catch (err) {
          if (!(err instanceof NoTruthError)) throw err;
          console.error(err.message);
          process.exitCode = 1;
        }
      });
    });

  parent
    .command('lists')
    .description(
      "Measure account-list matching on a noisy list made from the world's companies (www, country-code variants, typos, legal forms, made-up accounts)",
    )
    .option('--companies <n>', 'companies sampled into the list', '2000')
    .action(async (opts: { companies: string }) => {
      await withContext(async ({ db }) => {
        console.log(formatListsEval(await evaluateListMatching(db, { companies: Number(opts.companies) })));
      });
    });

  parent
    .command('ai')
    .description('Measure the AI helpers on a generated demo world with held-out evidence (in memory; the configured database is not touched)')
    .option('--seed <seed>', 'demo-world seed', 'stacklens')
    .option('--companies <n>', 'companies in the world', '5000')
    .option('--hold-out <share>', "share of each company's true installs hidden", '0.2')
    .option('--stack-sample <n>', 'companies scored for the tech stack', '300')
    .option('--products <n>', 'products scored for customers of products', '40')
    .option('--people <n>', 'generated people prompts', '300')
    .option('--prompts <n>', 'generated prompts for the parser', '300')
    .option('--as-of <date>', 'as-of date of the world (YYYY-MM-DD, default today)')
    .option('--fit', 'also fit fresh coefficients for the peer-inference and people-confidence models')
    .option('--json', 'print the report as JSON')
    .action(async (_opts: unknown, cmd: Command) => {
      // optsWithGlobals: `--fit` is also an option of the parent `eval`, which commander gives it.
      const o = cmd.optsWithGlobals() as Record<string, string | boolean | undefined>;
      const db = await openDb();
      try {
        await migrate(db);
        const started = Date.now();
        const report = await evaluateAi(db, {
          seed: String(o.seed),
          companies: Number(o.companies),
          holdOut: Number(o.holdOut),
          stackSample: Number(o.stackSample),
          productSample: Number(o.products),
          peoplePrompts: Number(o.people),
          parserPrompts: Number(o.prompts),
          fit: !!o.fit,
          asOf: typeof o.asOf === 'string' ? o.asOf : undefined,
          onPhase: (p) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${p}...\n`),
        });
        if (o.json) console.log(JSON.stringify(report, (_k, v) => (typeof v === 'number' ? Math.round(v * 10_000) / 10_000 : v), 2));
        else console.log(formatAiEval(report));
        process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
      } finally {
        await db.close();
      }
    });

  parent
    .command('detect')
    .description(
      'Measure the technology detector on the labelled fixture set and on 301 labelled real pages (precision, recall, F1 per technology, per source, micro-averaged); no database',
    )
    .option('--fixtures <file>', 'labelled fixtures (JSON Lines of { id, artifact, truth, negatives })')
    .option('--rules <file>', "an operator's rule file added to the catalog")
    .option('--world', "also measure it on the demo world's artifacts against the world's hidden truth (generated in memory)")
    .option('--world-only', 'measure it on the demo world only (not the fixtures)')
    .option('--real-pages <dir>', 'another labelled real-page set (a folder with manifest.jsonl, labels.jsonl and the pages)')
    .option('--skip-real-pages', 'do not measure it on the labelled real pages')
    .option('--companies <n>', 'companies of the demo world (--world)', '1000')
    .option('--seed <seed>', 'seed of the demo world (--world)', 'stacklens')
    .option('--as-of <date>', 'as-of day of the demo world, YYYY-MM-DD (--world; default today)')
    .option('--errors', 'also list every false positive and false negative with its evidence')
    .option('--json', 'print the report as JSON')
    .action(
      (opts: {
        fixtures?: string;
        rules?: string;
        world?: boolean;
        worldOnly?: boolean;
        realPages?: string;
        skipRealPages?: boolean;
        companies: string;
        seed: string;
        asOf?: string;
        errors?: boolean;
        json?: boolean;
      }) => {
        const companies = Number(opts.companies);
        if (!Number.isInteger(companies) || companies < 1 || companies > 100_000) throw new Error('--companies must be an integer from 1 to 100000');
        const catalog = opts.rules ? loadCatalog({ rulesFile: opts.rules }) : builtInCatalog();
        const json = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'number' ? Math.round(v * 10_000) / 10_000 : v), 2);
        const out: Record<string, unknown> = {};
        if (!opts.worldOnly) {
          const report = evaluateDetector(readFixtures(opts.fixtures ?? FIXTURES_FILE), catalog);
          if (opts.json) out.fixtures = report;
          else console.log(formatDetectEval(report, { errors: opts.errors }));
          const met =
            report.micro.precision >= DETECT_GOALS.precision && report.micro.recall >= DETECT_GOALS.recall && report.hardNegatives.detected.length === 0;
          if (!met) process.exitCode = 1;
        }
        if (!opts.worldOnly && !opts.skipRealPages) {
          const dir = opts.realPages ? pathToFileURL(resolve(opts.realPages) + '/') : undefined;
          const r = evaluateRealPages(catalog, dir);
          if (opts.json) out.realPages = r;
          else {
            const met = r.micro.precision >= REAL_PAGE_GOALS.precision && r.micro.recall >= REAL_PAGE_GOALS.recall;
            console.log(
              '\n' +
                formatDetectEval(r, {
                  errors: opts.errors,
                  goals: REAL_PAGE_GOALS,
                  minSupport: 3,
                  title: opts.realPages
                    ? `Real pages (${opts.realPages}): ${r.sites} pages.`
                    : `Real pages: ${r.sites} pages saved from real sites (readability's and postlight's test pages, labelled by hand; HTML only, no headers, cookies or DNS).`,
                  extra: [
                    `goals ${met ? 'met' : 'NOT met'} (reported, not enforced); not scored: ${r.notScored.implied} detections only implied, ${r.notScored.unsure} the page cannot confirm or deny`,
                  ],
                }),
            );
          }
        }
        if (opts.world || opts.worldOnly) {
          const r = evaluateWorld({ companies, seed: opts.seed, asOf: opts.asOf, detector: catalog });
          if (opts.json) out.world = r;
          else {
            if (!opts.worldOnly) console.log('');
            console.log(
              formatDetectEval(r, {
                errors: opts.errors,
                goals: false,
                title: `Demo world: ${r.sites} companies (seed '${opts.seed}'), today's crawl, DNS and last year's job posts against the hidden truth.`,
                extra: [
                  `${r.truthInUse} technologies truly in use; ${r.invisible} of them left no trace in the current view (missing tags, proxied analytics, internal tools).`,
                  `recall over the ones that left a trace: ${r.recallVisible.recall.toFixed(3)} (F1 ${r.recallVisible.f1.toFixed(3)})`,
                  `not scored: ${r.unmodelled.detections} detections of ${r.unmodelled.technologies.length} technologies the world does not model${
                    r.unmodelled.technologies.length
                      ? ` (most: ${r.unmodelled.technologies
                          .slice(0, 5)
                          .map((t) => `${t.name} ${t.detections}`)
                          .join(', ')})`
                      : ''
                  }`,
                ],
              }),
            );
          }
        }
        if (opts.json) console.log(json(Object.keys(out).length > 1 ? out : Object.values(out)[0]));
      },
    );
}

const f = (x: number) => x.toFixed(3);

export function formatIntelligenceEval(r: IntelligenceEvalReport): string {
  const out: string[] = [`Demo world: ${r.companies} companies in ${r.segments} hidden segments.`, ''];
  out.push(`${'measure'.padEnd(46)}value    goal     companies/items`);
  const line = (name: string, v: number, goal: string, n: number | string) => out.push(`${name.padEnd(46)}${f(v).padEnd(9)}${goal.padEnd(9)}${n}`);
  line('cohort purity (Default peers in segment)', r.purity.mean, '>= 0.80', r.purity.companies);
  line('  random-peer baseline', r.purity.randomBaseline, '', '');
  line('competitor precision (industry + size)', r.competitorPrecision.mean, '>= 0.80', r.competitorPrecision.companies);
  line('products in use: ECE', r.calibration.ece, '<= 0.05', r.calibration.installs);
  line('products in use: accuracy of inUse', r.calibration.accuracy, '', r.calibration.installs);
  line(`related: top-5 truly co-adopted (>= ${r.related.threshold})`, r.related.precisionAt5, '', r.related.anchors);
  line('related: mean segment co-adoption of top 5', r.related.meanCoAdoption, '', r.related.anchors);
  out.push('', 'Reliability (confidence bin: installs, mean confidence, observed in-use rate)');
  bins(out, r.calibration.table, 8);
  if (r.fitted) {
    out.push('', `Fitted coefficients (${FEATURE_NAMES.join(', ')}):`, `  [${r.fitted.coefficients.join(', ')}]`);
    out.push(`Fitted calibration map ([lowest score, probability] per step):`, `  ${JSON.stringify(r.fitted.calibrationMap)}`);
    out.push(
      `  on this world: ECE ${f(r.fitted.calibration.ece)}, accuracy ${f(r.fitted.calibration.accuracy)}; paste into CONFIDENCE_COEFFICIENTS and CONFIDENCE_CALIBRATION and check on another seed.`,
    );
  }
  return out.join('\n');
}

export function formatAiEval(r: AiEvalReport): string {
  const out: string[] = [];
  const w = r.world;
  out.push(
    `Demo world: ${w.companies} companies, seed '${w.seed}' (${w.engine}); ${w.hiddenInstalls} true installs hidden (${Math.round(w.holdOut * 100)}% per company).`,
    '',
  );
  out.push(`${'measure'.padEnd(56)}${'value'.padEnd(9)}${'goal'.padEnd(9)}n`);
  const line = (name: string, v: number, goal: string, n: number | string) => out.push(`${name.padEnd(56)}${f(v).padEnd(9)}${goal.padEnd(9)}${n}`);
  const t = r.techStack,
    c = r.customers,
    p = r.people;
  line('tech stack: inferred precision@10 (hidden installs)', t.precisionAt10, '', `${t.companies} companies`);
  line('tech stack: inferred recall@20 (hidden installs)', t.recallAt20, '', `${t.companies} companies`);
  line('tech stack: ECE, inferred candidates', t.inferred.ece, '<= 0.05', t.inferred.n);
  line('tech stack: ECE, observed installs', t.observed.ece, '<= 0.05', t.observed.n);
  line('tech stack: ECE, answers (top 20)', t.answer.ece, '<= 0.05', t.answer.n);
  line('customers: inferred precision@10 (held-out adopters)', c.precisionAt10Inferred, '', `${c.products} products`);
  line('customers: answer precision@10 (true users)', c.precisionAt10Answer, '', `${c.products} products`);
  line('customers: ECE, inferred candidates', c.inferred.ece, '<= 0.05', c.inferred.n);
  line('customers: ECE, answers (top 10)', c.answer.ece, '<= 0.05', c.answer.n);
  line('people: precision of returned profiles (top 10)', p.precisionAt10, '', `${p.answered}/${p.prompts} prompts answered`);
  line('people: intended person among the top 10', p.personFound, '', p.prompts);
  line('people: ECE of confidence', p.calibration.ece, '<= 0.05', p.calibration.n);
  line('all three helpers: ECE of returned probabilities', r.overall.ece, '<= 0.05', r.overall.n);
  line('parser: accuracy on generated prompts', r.parser.accuracy, '>= 0.95', r.parser.total);
  out.push(
    `  parser by variant: ${Object.entries(r.parser.byVariant)
      .map(([k, v]) => `${k} ${f(v.accuracy)} (${v.total})`)
      .join(', ')}`,
  );
  table(out, 'Reliability, all three helpers (bin: items, mean probability, observed rate)', r.overall);
  table(out, 'Reliability, tech-stack inferred candidates', t.inferred);
  table(out, 'Reliability, customers inferred candidates', c.inferred);
  table(out, 'Reliability, people confidence', r.people.calibration);
  if (r.fitted) {
    out.push('', `Fitted peer-inference coefficients (${INFERENCE_FEATURE_NAMES.join(', ')}):`, `  [${r.fitted.inference.join(', ')}]`);
    out.push(`  on this world: ECE ${f(r.fitted.inferenceCalibration.ece)} over ${r.fitted.inferenceCalibration.n} candidates`);
    out.push(`Fitted people-confidence coefficients (${PEOPLE_FEATURE_NAMES.join(', ')}):`, `  [${r.fitted.people.join(', ')}]`);
    out.push(`  on this world: ECE ${f(r.fitted.peopleCalibration.ece)} over ${r.fitted.peopleCalibration.n} profiles`);
    out.push('Paste into INFERENCE_COEFFICIENTS / PEOPLE_COEFFICIENTS and check on a world with another seed.');
  }
  return out.join('\n');
}

function table(out: string[], title: string, c: Calibration): void {
  out.push('', title);
  bins(out, c.table, 7);
}

/** One line per non-empty bin: range, items, mean probability, observed rate. */
function bins(out: string[], table: ReliabilityBin[], width: number): void {
  for (const b of table) {
    if (b.count === 0) continue;
    out.push(`  ${b.from.toFixed(1)}-${b.to.toFixed(1)}: ${String(b.count).padStart(width)}  ${b.meanConfidence.toFixed(3)}  ${b.observedRate.toFixed(3)}`);
  }
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The figures of `eval changes`, each with its goal. */
export function formatChangesEval(r: ChangesEvalReport): string {
  const g = CHANGE_GOALS;
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const kind = (name: string, m: ChangesEvalReport['adopted']) =>
    `  ${name}: ${m.events} events, ${m.truth} true changes of detectable tools; precision ${pct(m.precision)} (goal ≥ ${pct(g.precision)}: ${mark(m.precision >= g.precision)}), recall ${pct(m.recall)} (goal ≥ ${pct(g.recall)}: ${mark(m.recall >= g.recall)}); recall over every true change (undetectable tools too) ${pct(m.recallAll)}`;
  return [
    `The world's past: ${r.companies} companies, ${r.visits} visits every ${r.intervalDays} days, ${pct(r.failedShare)} failed or partial`,
    kind('technology.adopted', r.adopted),
    kind('technology.dropped', r.dropped),
    `  occurredAt within ${r.intervalDays} days of the true date: ${pct(r.timing.share)} of ${r.timing.paired} paired events (goal ≥ ${pct(g.timing)}: ${mark(r.timing.share >= g.timing)})`,
    `  false drops: ${r.falseDrops.seeded} in the world; ${r.falseDrops.injected} of ${r.falseDrops.injectedDrops} drops with ${pct(r.falseDrops.injectedShare)} more visits failed (goal ${g.falseDrops}: ${mark(r.falseDrops.injected === g.falseDrops && r.falseDrops.seeded === 0)})`,
    `  monthly adoption counts of the ${r.trends.products} most used products over ${r.trends.months} months: error mean ${pct(r.trends.meanError)}, max ${pct(r.trends.maxError)} (goal ≤ ${pct(g.trendError)}: ${mark(r.trends.maxError <= g.trendError)}) against the true uses at each company's last successful visit before the month's end; max ${pct(r.trends.maxErrorAtMonthEnd)} against those at the month's end; per product and month ${pct(r.trends.meanProductMonthError)}; max against every true use (undetectable tools too) ${pct(r.trends.maxErrorAllInUse)}`,
  ].join('\n');
}
