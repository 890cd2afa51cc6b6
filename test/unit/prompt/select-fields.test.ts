import { describe, expect, it } from 'vitest';
import { NONE_FITS, selectSkills, type SelectionCandidate } from '../../../src/prompt/select.js';
import { headingsOf } from '../../../src/prompt/select-scan.js';
import { stem } from '../../../src/prompt/text-match.js';

const names = (query: string, c: SelectionCandidate[], max = 3) =>
  selectSkills(query, c, { max }).selected.map((s) => s.name);
// Twenty skills about other things: a catalog large enough for "none fits" to apply.
const filler = (n = 20): SelectionCandidate[] =>
  ['mail', 'calendar', 'weather', 'stocks', 'translate', 'resize', 'docker', 'cron', 'slack', 'sql'].flatMap((w, k) =>
    Array.from({ length: Math.ceil(n / 10) }, (_, i) => ({
      name: `${w}-${k}-${i}`,
      description: `Work with ${w} ${i ? 'tasks' : 'jobs'} for the team.`,
    })),
  );

describe('headingsOf', () => {
  it('keeps the headings of a body, one a line, and leaves out "#" lines inside fenced code', () => {
    const body = [
      '# Title',
      'text',
      '## Red, green, refactor',
      '```bash',
      '# a shell comment',
      '```',
      '   ### Indented heading',
      '~~~~',
      '# still code',
      '~~~',
      '# still code: a shorter fence does not close',
      '~~~~',
      '#hashtag is no heading',
      '####### seven is no heading',
    ].join('\n');
    expect(headingsOf(body)).toBe('Title\nRed, green, refactor\nIndented heading\n');
  });
});

describe('the body as a field', () => {
  it('ranks a skill whose body holds more of the query above one whose description alone matches', () => {
    // Named as skills are, by their task: with only "review" in a description (a generic word) and "injection" in a
    // body's text (no evidence), "none fits" of this two-skill catalog would select neither.
    const c = [
      { name: 'a-review', description: 'Review pull requests.', body: '# Review\n\nRead the diff.' },
      {
        name: 'b-review',
        description: 'Review pull requests.',
        body: '# Security\n\nLook for injection in the diff: SQL injection, command injection.',
      },
    ];
    expect(selectSkills('review this for injection', c, { max: 3 }).ranked.map((s) => s.name)).toEqual([
      'b-review',
      'a-review',
    ]);
    expect(selectSkills('review this for injection', c, { max: 1 }).selected[0]!.matched).toEqual([
      'relevance: review (name, description), injection (body)',
    ]);
  });

  it('gives its headings more weight than its text', () => {
    const c = [
      { name: 'a', description: 'Debug programs.', body: '# Steps\n\nFind the root cause first.' },
      { name: 'b', description: 'Debug programs.', body: '# Root cause\n\nFind it first.' },
    ];
    expect(names('debug to find the root cause', c)[0]).toBe('b');
  });

  it('finds no skill by its body alone: the body ranks the skills its metadata found', () => {
    const c = [
      { name: 'a', description: 'Edit images.', body: 'Also handles invoices now and then.' },
      { name: 'b', description: 'Send mail.' },
    ];
    expect(selectSkills('process this invoice', c, { max: 3 }).ranked).toEqual([]);
  });
});

describe('pairs of query words side by side', () => {
  it('ranks the skill that has two query words next to each other above one that has them apart', () => {
    // The same words and the same length: only their order differs (and the names would put apart first).
    const c = [
      { name: 'apart', description: 'Graph the team and code the repository.' },
      { name: 'together', description: 'Code graph of the team and repository!!' },
    ];
    expect(c[0]!.description.length).toBe(c[1]!.description.length);
    expect(selectSkills('build a code graph', c, { max: 3 }).ranked.map((s) => s.name)).toEqual(['together', 'apart']);
  });
});

describe('words', () => {
  it('folds British -our into -or, so "colour" meets "color" and "behavioural" meets "behavioral"', () => {
    expect(stem('colour')).toBe(stem('color'));
    expect(stem('colours')).toBe(stem('colors'));
    expect(stem('behavioural')).toBe(stem('behavioral'));
    expect(stem('neighbours')).toBe(stem('neighbors'));
    for (const w of ['four', 'hour', 'your', 'detour', 'pour']) expect(stem(w)).not.toMatch(/or$/);
    const c = [
      { name: 'palette', description: 'Pick a color palette.' },
      { name: 'other', description: 'Unrelated.' },
    ];
    expect(names('which colours go together', c)).toEqual(['palette']);
  });

  it('counts function words the stop words leave out ("whether", "without", "across") as generic', () => {
    const c = [...filler(), { name: 'gate', description: 'Decide whether a release ships without a review.' }];
    // Alone they select nothing, as "check" or "work" do not: what the request asks is in no skill.
    expect(selectSkills('check whether it works without errors across browsers', c, { max: 3 }).selected).toEqual([]);
    expect(names('decide whether the release ships', c)).toEqual(['gate']);
  });

  it('counts verbs of any request ("see", "know", "keep", "take") as generic', () => {
    const c = [...filler(), { name: 'notes', description: 'See, know and keep what you take down.' }];
    expect(selectSkills('I want to see what it does and keep it', c, { max: 3 }).selected).toEqual([]);
    expect(names('take notes', c)).toEqual(['notes']);
  });
});

describe('generic words in a name', () => {
  it("ranks by a generic word the name holds at its whole IDF: the name's verb tells siblings apart", () => {
    const c = [
      ...filler(),
      { name: 'writing-plans', description: 'Plans, step by step, for a spec.' },
      { name: 'executing-plans', description: 'Carry out an implementation plan: each step, then review the plan.' },
    ];
    // "write" is generic (it counts a third): "implementation" put executing-plans first on it.
    expect(selectSkills('write an implementation plan', c, { max: 3 }).ranked.map((s) => s.name)).toEqual([
      'writing-plans',
      'executing-plans',
    ]);
    // Still too generic to select a skill alone.
    expect(
      selectSkills('write the code', [...filler(), { name: 'writing-poems', description: 'Verse.' }], { max: 3 })
        .ranked,
    ).toEqual([]);
  });

  it('counts "skill" as a generic word, not a stop word: it tells the skills about skills from the rest', () => {
    const c = [
      ...filler(),
      { name: 'skill-creator', description: 'Turn a checklist or a workflow into a skill an agent follows.' },
      { name: 'code-review', description: 'Use this skill to review code against a checklist.' },
    ];
    // "skill" was dropped with the stop words: both hold "checklist", and the name in alphabetical order decided.
    expect(selectSkills('make a skill from our checklist', c, { max: 3 }).ranked[0]!.name).toBe('skill-creator');
    // Alone it selects nothing, as any generic word.
    expect(selectSkills('my skill', c, { max: 3 }).selected).toEqual([]);
  });
});

describe('mentions of names', () => {
  it('takes two words of a longer name in sequence as a mention of it, before a shorter name mentioned whole', () => {
    const c = [
      { name: 'semgrep', description: 'Run a Semgrep scan.' },
      { name: 'semgrep-rule-creator', description: 'Create custom rules.' },
      { name: 'other', description: 'Unrelated.' },
    ];
    const r = selectSkills('write a semgrep rule for eval', c, { max: 3 });
    expect(r.selected.map((s) => [s.name, s.kind])).toEqual([
      ['semgrep-rule-creator', 'mention'],
      ['semgrep', 'mention'],
    ]);
    expect(r.selected[0]!.matched[0]).toBe('name words "semgrep rule" mentioned');
  });

  it('counts a part of a longer name that other skills also say side by side as relevance, not a mention', () => {
    const c = [
      { name: 'entry-point-analyzer', description: 'List the entry points of a codebase that outsiders can call.' },
      {
        name: 'code-summary',
        description: 'A quick overview of a codebase: its languages, entry points, dependencies.',
      },
      { name: 'finding-triage', description: 'Triage one finding: is it reachable from an entry point?' },
      ...filler(),
    ];
    const r = selectSkills('quick overview of the languages, entry points and dependencies', c, { max: 3 });
    // "entry points" is what two other skills say too: the request is about the summary that holds all of it.
    expect(r.selected[0]).toMatchObject({ name: 'code-summary', kind: 'relevance' });
    const analyzer = r.ranked.find((s) => s.name === 'entry-point-analyzer')!;
    expect(analyzer.kind).toBe('relevance');
    expect(analyzer.matched[0]).toBe('name words "entry point" mentioned, as other skills say it: relevance');
    // A request that is all the part, or that the skill holds whole, still mentions it.
    expect(selectSkills('entry points', c, { max: 1 }).selected[0]).toMatchObject({
      name: 'entry-point-analyzer',
      kind: 'mention',
    });
    expect(selectSkills('which entry points can outsiders call', c, { max: 1 }).selected[0]).toMatchObject({
      name: 'entry-point-analyzer',
      kind: 'mention',
    });
    // A part no other skill says side by side is still a mention: it names this skill alone.
    const alone = [{ name: 'semgrep-rule-creator', description: 'Create custom rules.' }, ...filler()];
    expect(selectSkills('write a semgrep rule for eval', alone, { max: 1 }).selected[0]).toMatchObject({
      name: 'semgrep-rule-creator',
      kind: 'mention',
    });
  });

  it('takes an acronym of a name of three words or more, in capitals or of consonants only, as a mention', () => {
    const c = [
      { name: 'test-driven-development', description: 'Use when implementing any feature.' },
      { name: 'modern-cpp', description: 'Refactor C++ code.' },
    ];
    const r = selectSkills("let's do TDD: red, green, refactor", c, { max: 1 });
    expect(r.selected[0]).toMatchObject({ name: 'test-driven-development', kind: 'mention' });
    expect(r.selected[0]!.matched).toEqual(['name "test-driven-development" mentioned as TDD']);
    // In lower case, a word of consonants only is an acronym too (no English word is); a word with vowels is not.
    expect(selectSkills("let's do tdd", c, { max: 1 }).selected[0]).toMatchObject({
      name: 'test-driven-development',
      kind: 'mention',
    });
    expect(selectSkills("let's do tad", [{ name: 'tidy-all-docs', description: 'Tidy.' }], { max: 1 }).ranked).toEqual(
      [],
    );
  });

  it('does not take a folder of a path as an acronym ("src/auth" names no skill called s-r-c)', () => {
    const c = [
      { name: 'semgrep-rule-creator', description: 'Write custom Semgrep rules.' },
      { name: 'diagramming-code', description: 'Draw diagrams of which functions call which.' },
    ];
    const r = selectSkills('draw me a picture of which functions call which in src/auth', c, { max: 1 });
    expect(r.selected[0]).toMatchObject({ name: 'diagramming-code', kind: 'relevance' });
    expect(selectSkills('look in lib\\src\\auth', c, { max: 1 }).selected).toEqual([]);
    // Alone, or at the end of a sentence, it is still one.
    expect(selectSkills('use src.', c, { max: 1 }).selected[0]).toMatchObject({
      name: 'semgrep-rule-creator',
      kind: 'mention',
    });
  });

  it('does not count a one-word name that many skills describe themselves with (a tool) as a mention', () => {
    const c = [
      { name: 'trailmark', description: 'Build code graphs with Trailmark.' },
      { name: 'augment', description: 'Import weAudit annotations into Trailmark graphs.' },
      { name: 'triage', description: 'Triage one finding with Trailmark.' },
      { name: 'diagrams', description: 'Draw Trailmark graphs.' },
      { name: 'summary', description: 'Summarise a codebase with Trailmark.' },
      ...filler(),
    ];
    const r = selectSkills('import our weaudit annotations into the trailmark graph', c, { max: 3 });
    expect(r.selected[0]).toMatchObject({ name: 'augment', kind: 'relevance' });
    expect(r.ranked.find((s) => s.name === 'trailmark')!.kind).toBe('relevance');
    // The tool's name alone still puts the skill of that name before its siblings, whose names are longer.
    const siblings = [
      { name: 'trailmark', description: 'Build code graphs.' },
      { name: 'trailmark-summary', description: 'A Trailmark summary: trailmark summary, trailmark overview.' },
      { name: 'trailmark-triage', description: 'Triage one finding with Trailmark.' },
      { name: 'trailmark-diff', description: 'Compare two Trailmark graphs.' },
      ...filler(60),
    ];
    expect(selectSkills('trailmark', siblings, { max: 3 }).selected[0]).toMatchObject({
      name: 'trailmark',
      kind: 'relevance',
    });
    // Among few skills that use the word, the name still is a mention.
    expect(selectSkills('use trailmark', c.slice(0, 2), { max: 1 }).selected[0]).toMatchObject({
      name: 'trailmark',
      kind: 'mention',
    });
  });
});

describe('none fits', () => {
  const c = [
    ...filler(),
    { name: 'harness-writing', description: 'Write fuzzing harnesses. Use when creating fuzz targets.' },
    { name: 'forecast', description: 'Forecasts for a city: rain, wind, temperature.' },
    {
      name: 'theme',
      description: 'Apply a colour theme to slides.',
      body: '# Themes\n\nA garden of colours, a garden of fonts: garden, garden, garden.',
    },
  ];

  it('selects nothing on a generic word alone', () => {
    expect(selectSkills('write a haiku about autumn', c, { max: 3 }).ranked).toEqual([]);
  });

  it('selects nothing on a related word alone; --explain says why it was not selected', () => {
    const r = selectSkills('a presentation about autumn leaves', c, { max: 3 });
    expect(r.selected).toEqual([]);
    const below = r.ranked.find((s) => s.name === 'theme')!;
    expect(below.below).toMatch(
      /^its name, triggers, descriptions and headings match 0\.\d\d of one rare word, under the 0\.\d\d needed \(.*; it holds \d+% of what the request says, not: autumn, leaves\)$/,
    );
    expect(below.matched).toEqual(['relevance: presentation ~ a related word (description)']);
  });

  it('selects nothing on words of a body alone', () => {
    expect(selectSkills('what should I plant in my garden', c, { max: 3 }).selected).toEqual([]);
  });

  it('still selects a skill for one rare word of its description', () => {
    expect(names('will it rain in Oslo', c)).toEqual(['forecast']);
  });

  it('puts a match under the threshold after every selectable one, and selects only those', () => {
    const r = selectSkills('write fuzz targets', c, { max: 3 });
    expect(r.selected.map((s) => s.name)).toEqual(['harness-writing']);
    expect(r.ranked.every((s, i) => !s.below || r.ranked.slice(i).every((t) => t.below))).toBe(true);
  });

  it('needs more when the skill holds little of what the request says, by IDF', () => {
    // "rain" is one rare word of one description: enough alone, and beside a word of time ("tomorrow").
    expect(names('will it rain tomorrow', c)).toEqual(['forecast']);
    // Beside three words it lacks, the request is about something else: the threshold grows, and --explain names them.
    const r = selectSkills('a birthday poem about rain for grandmother', c, { max: 3 });
    expect(r.selected).toEqual([]);
    const below = r.ranked.find((s) => s.name === 'forecast')!.below!;
    const needed = Number(/under the (\d\.\d\d) needed/.exec(below)![1]);
    expect(needed).toBeGreaterThan(NONE_FITS);
    expect(below).toMatch(/it holds 2\d% of what the request says, not: birthday, poem, grandmother\)$/);
    // What another skill holds ("garden", in a body) does not help this one.
    expect(names('a garden poem about rain for grandmother', c)).toEqual([]);
  });

  it('counts a word of a phrase as held when the skill holds what the phrase means', () => {
    const d = [...filler(), { name: 'diagnosis', description: 'Diagnose a problem before any fix.' }];
    // "figure out why" means diagnose: "figure" is held, the words of the request around it are not.
    const below = selectSkills('figure out why the export stopped', d, { max: 3 }).ranked[0]!.below!;
    expect(below).toMatch(/it holds 33% of what the request says, not: export, stopped\)$/);
  });

  it('counts names and quoted text that no skill has on neither side: they are what the request is about', () => {
    expect(names('will it rain in Lisbon or Oslo tomorrow', c)).toEqual(['forecast']);
    expect(names('will it rain in lisbon or oslo tomorrow', c)).toEqual([]);
    expect(names('will it rain, as "the almanac predicted" tomorrow', c)).toEqual(['forecast']);
  });

  it('counts a name that some skill holds, or skills elsewhere use, on both sides: it is what the request is about', () => {
    const hosting = { name: 'hosting', description: 'Deploy static sites to a CDN.', body: '# Deploy\n\nRun it.' };
    // No skill holds "Brindlewood", nor do skills elsewhere use it: the request's material, on neither side.
    expect(names('deploy my Brindlewood app', [...filler(), hosting])).toEqual(['hosting']);
    // Skills elsewhere use "Django" (the learned table knows it): the request is about Django, which hosting lacks.
    expect(names('deploy my Django app', [...filler(), hosting])).toEqual([]);
    expect(names('set up MySQL replication and deploy it', [...filler(), hosting])).toEqual([]);
    // A skill holds it: the request is about Django, which hosting lacks, and one rare word is not enough for half.
    const orm = { name: 'orm', description: 'Models and migrations for Django.' };
    const r = selectSkills('deploy my Django app', [...filler(), hosting, orm], { max: 3 });
    expect(r.selected).toEqual([]);
    expect(r.ranked.find((s) => s.name === 'hosting')!.below).toMatch(
      /holds 50% of what the request says, not: django\)$/,
    );
  });

  it('weighs a word no skill here holds and public skills use (a neighbouring tool) as 2.5 rare words in coverage', () => {
    const capture = { name: 'capture', description: 'Send web traffic through a local proxy, and replay requests.' };
    const d = [...filler(), capture];
    const below = (q: string) => selectSkills(q, d, { max: 3 }).ranked.find((s) => s.name === 'capture')!.below;
    // "kubernetes" is no skill's word here, and hundreds of public skills': the catalog lacks what it is about.
    expect(below('a proxy for kubernetes')).toMatch(
      /under the 0\.64 needed .* no skill here holds kubernetes, and public skills do: each weighs 2\.5; it holds 29% /,
    );
    // A word public skills do not use ("brindlewood", a typo, a place) weighs one rare word, as before.
    expect(below('a proxy for brindlewood')).toMatch(
      /under the 0\.57 needed .*it holds 50% of what the request says, not: brindlewood\)$/,
    );
    // A skill that holds more of the request is selected all the same.
    expect(names('proxy traffic on kubernetes', d)).toEqual(['capture']);
    // "skeleton" is a template: a skill that says template holds it, half.
    const starter = { name: 'starter', description: 'Start a new skill from the template.' };
    expect(names('a skill skeleton to start from', [...filler(), starter])).toEqual(['starter']);
  });

  it("takes the words of the body's headings as evidence, and the body's text as none", () => {
    const d = [
      ...filler(),
      { name: 'postmortem', description: 'Work for the team.', body: '# Root cause analysis\n\nRead.' },
      { name: 'notes', description: 'Work for the team.', body: '# Cause\n\n# Root\n\nRead.' },
      { name: 'plain', description: 'Work for the team.', body: '# Steps\n\nFind the root cause.' },
    ];
    const r = selectSkills('the root cause for the team', d, { max: 3 });
    // A heading's words count a fifth of a description's (two side by side, half); the text ranks but is no evidence.
    expect(new Set(r.selected.map((s) => s.name))).toEqual(new Set(['postmortem', 'notes']));
    // 'plain' says "root cause" in its text only, side by side as every body here does (no evidence): not selected.
  });

  it('counts one word of a longer name as a description would, for a skill that holds little of the request', () => {
    const d = [
      ...filler(),
      { name: 'culture-index', description: 'Interpret Culture Index survey results and profiles of people.' },
      { name: 'sql-tuning', description: 'Tune slow SQL queries.' },
    ];
    // "index" is the one word of its name culture-index holds, and the request is about something else.
    const r = selectSkills('how does pg_trgm fuzzy matching work in postgres with a gin index', d, { max: 3 });
    expect(r.selected).toEqual([]);
    expect(r.ranked.find((s) => s.name === 'culture-index')!.below).toMatch(
      /; the one word of its name it holds counts as a description's\)$/,
    );
    // A request that is mostly what the skill holds keeps the name's whole weight.
    expect(names('read our culture index', d)).toEqual(['culture-index']);
    expect(names('index profiles', d)).toEqual(['culture-index']);
  });

  describe("two request words side by side in the body's text", () => {
    // Twenty skills about other things, each with a body that says "read the input" and a step of its own; five of
    // them say "memory" in their description, so that the word is evidence, but under the bar alone.
    const body = (step: string) => `# Steps\n\nRead the input first. ${step}\n\nThen write a report on what you found.`;
    const others = filler().map((s, k) => ({
      ...s,
      description: k < 5 ? `${s.description} Mind the memory.` : s.description,
      body: body(`Check the ${s.name} settings, one by one, before anything else is changed.`),
    }));
    const tuning = {
      name: 'event-queues',
      description: 'Keep memory use low for the team.',
      body: body('Size the ring buffer first: too small, it drops events.'),
    };
    const d = [...others, tuning];

    // The same words, apart, in a body of the same length.
    const apart = {
      ...tuning,
      name: 'event-queues-care',
      body: body('Size the ring first: too small a buffer drops events.').padEnd(tuning.body.length),
    };

    it('are evidence: a request whose rare pair the skill holds only in its body selects it', () => {
      expect(names('a ring buffer in memory', d)).toEqual(['event-queues']);
      // Without the pair in its body, "memory" (and the body's words apart) are not enough.
      const r = selectSkills('a ring buffer in memory', [...others, apart], { max: 3 });
      expect(r.selected).toEqual([]);
      expect(r.ranked.find((s) => s.name === 'event-queues-care')?.below).toBeDefined();
    });

    it('count by how many bodies hold them: a pair every body holds is no evidence', () => {
      // "read the input" is in every body: side by side there, it says nothing of which skill is meant.
      expect(names('read the input of this poem for the team', d)).toEqual([]);
      expect(names('read the input of this memory poem', d)).toEqual([]);
    });

    it('are no evidence when both words are generic: any body of steps holds such pairs', () => {
      const steps = { ...tuning, body: body('Check the file first: too small a ring drops events.') };
      // "check" and "file" are generic words; side by side in this one body they do not say the request is its.
      const r = selectSkills('check the file for memory', [...others, steps], { max: 3 });
      expect(r.selected).toEqual([]);
      expect(r.ranked.find((s) => s.name === 'event-queues')?.below).toMatch(
        /side by side in the body, not both generic;/,
      );
      // A pair with one telling word still is ("ring" beside "buffer" above; "file" beside "ring" here).
      expect(names('file ring for memory', [...others, { ...steps, body: body('Save the file ring first.') }])).toEqual(
        ['event-queues'],
      );
    });

    it('do not rank: the skill with the pair and the one with its words apart score alike, but for "none fits"', () => {
      const r = selectSkills('a ring buffer in memory', [...d, apart], { max: 3 });
      const [a, b] = ['event-queues', 'event-queues-care'].map((n) => r.ranked.find((s) => s.name === n)!);
      expect(a!.below).toBeUndefined();
      expect(b!.below).toBeDefined();
      // The class of a match under the bar is one lower; what is left is the same relevance.
      expect(a!.score - b!.score).toBeCloseTo(1, 3);
    });
  });

  it('applies in a catalog of fewer than 20 skills too, weighing words half by their IDF over public skills', () => {
    const three = c.slice(-3);
    const r = selectSkills('a presentation about autumn leaves', three, { max: 3 });
    expect(r.selected).toEqual([]);
    expect(r.ranked.map((s) => [s.name, s.below])).toEqual([
      [
        'theme',
        expect.stringMatching(
          /^its name, triggers, descriptions and headings match 0\.\d\d of one rare word, under the 0\.\d\d needed \(.*; it holds \d+% of what the request says, not: autumn, leaves\)$/,
        ),
      ],
    ]);
    // A request that names one skill's task still selects it.
    expect(names('will it rain in Oslo', three)).toEqual(['forecast']);
    expect(names('write fuzz targets', three)).toEqual(['harness-writing']);
    expect(names('which colours go together', [{ name: 'palette', description: 'Pick a color palette.' }])).toEqual([
      'palette',
    ]);
  });
});
