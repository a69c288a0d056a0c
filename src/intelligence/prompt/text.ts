// Text primitives of the prompt parser: tokens with their positions, the compact key every
// lexicon is looked up by, singular forms, and the word lists that keep plain English from
// being read as catalog entities.

export interface Token {
  /** The token as written. */
  raw: string;
  start: number;
  end: number;
  /** Lowercase, diacritics removed; punctuation kept (`node.js`, `c++`, `mid-market`). */
  key: string;
  /** Letters, digits, + and # only: the lookup key (`hubspot`, `nodejs`, `atandt` for "AT&T"). */
  compact: string;
  /** Written in capitals (`US`, `IT`, `CRM`), and at least two letters. */
  upper: boolean;
  /** Starts with a capital letter (and the prompt is not written all in capitals). */
  capitalized: boolean;
  /** Punctuation (not only spaces) separates it from the previous token: names do not span it. */
  breakBefore: boolean;
  /** Set once the token belongs to a recognized entity. */
  used: boolean;
}

/** Punctuation that ends a name: "HubSpot, Slack" is two names; "S/4HANA" and "AT&T" are one. */
const BREAK_RE = /[,;:!?()[\]{}|"“”<>]|\.\s|\n/u;
const TOKEN_RE = /[\p{L}\p{N}]+(?:[.'’&+#-][\p{L}\p{N}]+)*[+#]*|&/gu;

function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The lookup key of a phrase: folded, `&` as "and", only letters, digits, + and #. */
export function compactOf(s: string): string {
  return fold(s)
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}+#]/gu, '');
}

/** Splits a prompt into tokens. All-capital prompts carry no case information. */
export function tokenize(text: string): Token[] {
  const letters = text.replace(/[^\p{L}]/gu, '');
  const upperLetters = letters.replace(/[^\p{Lu}]/gu, '');
  const shouting = letters.length >= 8 && upperLetters.length / letters.length > 0.7;
  const tokens: Token[] = [];
  let prevEnd = 0;
  for (const m of text.matchAll(TOKEN_RE)) {
    const raw = m[0];
    const key = raw === '&' ? 'and' : fold(raw);
    const lettersOnly = raw.replace(/[^\p{L}]/gu, '');
    tokens.push({
      raw,
      start: m.index,
      end: m.index + raw.length,
      key,
      compact: raw === '&' ? 'and' : compactOf(raw),
      upper: lettersOnly.length >= 2 && lettersOnly === lettersOnly.toUpperCase() && lettersOnly !== lettersOnly.toLowerCase(),
      capitalized: !shouting && /^\p{Lu}/u.test(raw),
      breakBefore: BREAK_RE.test(text.slice(prevEnd, m.index)),
      used: false,
    });
    prevEnd = m.index + raw.length;
  }
  return tokens;
}

// A Map, not an object literal: the word 'constructor' must not find Object's prototype.
const IRREGULAR_PLURALS = new Map(Object.entries({ people: 'person', men: 'man', women: 'woman', heads: 'head', ceos: 'ceo', vps: 'vp' }));

/** English plural → singular, for the simple regular cases plus a few irregular ones. */
export function singular(word: string): string {
  const irregular = IRREGULAR_PLURALS.get(word);
  if (irregular) return irregular;
  if (word.length <= 3) return word;
  if (/(ss|us|is|ics)$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

const list = (s: string) => new Set(s.trim().split(/\s+/));

/** Function words: never an entity on their own, never a leftover term. */
export const STOP_WORDS = list(`
  a an the and or nor but if then than so such of in on at to for with by from as into onto over under above below
  between through during before after up down out off about across against along around among within without via per
  is are was were be been being am do does did doing done have has had having will would shall should can could may
  might must i me my mine we us our ours you your yours he him his she her hers it its they them their theirs
  this that these those there here what which who whom whose when where why how all any some each every both either
  neither no not only own same other another such too very just also again further once more most less least few many
  much lot lots please thanks thank kindly etc eg ie vs versus like than while whether yes okay ok hi hello hey
`);

/** Words that describe the request itself rather than its subject. */
export const QUERY_WORDS = list(`
  find finding list show give get gets getting search searching look looking want need needs tell return fetch display
  identify suggest recommend see know pull bring provide share send print output
  company companies firm firms business businesses organization organizations organisation organisations org orgs
  account accounts customer customers client clients user users buyer buyers prospect prospects lead leads target targets
  people person persons profile profiles contact contacts individual individuals employee employees staff worker workers
  use uses using used utilize utilizes utilizing run runs running rely relies relying adopt adopts adopted adopting
  deploy deploys deployed deploying implement implemented implementing leverage leverages leveraging
  tool tools software platform platforms solution solutions system systems app apps application applications service
  services product products stack stacks tech technology technologies techstack vendor vendors provider providers
  based located headquartered hq operating working work works team teams department departments
  best top good great leading popular famous major known main key biggest largest common typical various several
  world worldwide global globally everything anything something nothing everyone someone anyone
  currently current now today also already still ever really maybe probably likely possible possibly
  which whose named called similar similarly other others else
`);

/** Words too generic to name a catalog entity alone ("tools", "software"). */
export const GENERIC_WORDS = list(`
  tool tools software platform platforms solution solutions system systems app apps application applications service
  services product products suite stack tech technology technologies online digital management
`);

/**
 * Common English words. A catalog entity whose whole name is one of them ("Slack", "Zoom",
 * "Box", "Close", "Front") is only read from the prompt when it is capitalized or follows a
 * usage cue ("using zoom"), and such words are never corrected as typos.
 */
export const COMMON_WORDS = new Set([
  ...STOP_WORDS,
  ...QUERY_WORDS,
  ...GENERIC_WORDS,
  ...list(`
  able ace act action active add added ads advance advanced after age agent agents agile air alert all alpha amber anchor
  angle answer ant apex apple arc area arena argo armor arrow art asset assets atlas atom attic aura auto avenue axis
  back badge balance ball band bank base basic basics basket batch beacon beam bear beat bee bell belt bench beta big bill
  bind bird bit blaze blend block bloom blue board boat body bold bolt bond book boom boost boot bot bottle bounce box brain
  branch brand brave bread break breeze brick bridge bright broad brush bubble bucket buffer build builder bulb bunch
  cabin cable cake calendar call camp can canvas cap capital card care cargo carry case cash cast castle cat catalyst
  cause cell center central chain chair chalk champion change channel chart chase chat check chef chess chorus circle
  city civic clarity class clean clear clever click cliff climb clock close cloud club coast code coin cold collect
  color comet command common compass concept connect console copper copy core corner count cover craft crane create
  crew cross crowd crown cube culture cup cure current curve cycle daily dash data dawn day deal deck deep delta depot
  design desk detail dial diamond digit direct dock docs dome door dot double dove draft drift drive drop drum dune
  dynamic eagle early earth echo edge effect element elite ember engine envoy epic equal essential event ever evolve
  exact expert express eye fabric face fact factor fair faith falcon fast feather feed field figure file fill film
  final finch fire first fit flag flash fleet flex flight float flock flow flower fly focus fog folk force forge form
  fort forward fox frame free fresh friend front frost fuel fuse future gain galaxy game gap garden gate gather gear gem
  general genius giant gift glass glide globe glow goal gold gong grace grain graph grass gravity green grid ground
  group grove grow guard guide gust habit half hall hand harbor hard harmony harvest hatch haven hawk head heap heart
  help hero hex high hill hive hold home honey hook hope horizon host hub hunt ice icon idea image impact index infinity
  ink inner insight intercom iron island ivy jade jet jobs join journey joy judge jump jungle just keen keep key kind
  king kit kite knot lab ladder lake lamp land lane laser launch layer leaf lean ledger lemon lens level lever life
  lift light lime line link lion liquid list live loan local lock loft logic loom loop lotus loyal luna lunar magnet
  mail main maker map maple marble mark market marvel mason master match matrix meadow measure medium meet mentor merge
  mesh metal meter metric mile mill mind mint mirror mission mode model moment monday money monitor moon mosaic motion
  mountain mouse move muse native nature navigator neat nest net network new next nexus night noble node north notion
  nova number oak oasis ocean office omega one open optic orange orbit order origin outlook outreach owl pace pack page
  paint pair palm panel paper park partner pass path pattern pay peak pearl pepper pick pilot pine pipe pitch pivot
  pixel place plan planet plant play plaza plus pocket point polar pond pool port portal post power prime prism pro
  profit project prompt proof pulse pure purple quest quick quiet radar radius rain ramp range rapid raven reach ready
  real reason record red reef relay remote report rest rider ridge right ring ripple rise river road rock rocket root
  rose round route royal ruby rule rush sage sail salt sand scale scan scene scope score scout screen sea seal seed
  seek segment select sense sentry serve set shape share sharp shell shield shift ship shop short sight sign signal
  silver simple site sky slack slate smart smile snap snow solar solid sonar sound source space spark sphere spider
  spin spot spring sprout square stack stage star start state station steady steel stem step stone storm story stream
  street stride strike strong studio style summit sun surf swift switch sync table tag tail talent tank target task
  teams ten terra test text thread tide tiger timber time tint title token tower track trade trail train tree trend
  tribe trust truth tune turn twin unity up urban valley value vault vector venture verse view village vision vista
  visual voice volt wagon wall wave way well west whale wheel wild wind window wing wire wise wolf wonder wood word
  work world worth yard yellow yield zen zero zone zoom
`),
]);

/** Words after which a lowercase common-word name is read as a product ("companies using zoom"). */
export const USAGE_CUES = list(`
  use uses using used user users adopt adopts adopted adopting deploy deploys deployed run runs running on with of
  and or to from via vs versus like switched migrated migrating moved replacing replaced customers clients
`);
