import { describe, expect, it } from 'vitest';
import { PHRASES, SYNONYM_GROUPS } from '../../../src/prompt/synonyms.js';
import { buildTable, phrasesIn, relatedStems } from '../../../src/prompt/related-terms.js';
import { stem } from '../../../src/prompt/text-match.js';
import { parseQuery } from '../../../src/prompt/select-query.js';
import { selectSkills } from '../../../src/prompt/select.js';

/** Each pair related both ways by the table (by stem). */
function expectRelated(pairs: readonly (readonly [string, string])[]): void {
  const related = (a: string, b: string) => relatedStems(stem(a)).includes(stem(b));
  for (const [a, b] of pairs) expect(related(a, b) && related(b, a), `${a} ~ ${b}`).toBe(true);
}

describe('the synonym table (data)', () => {
  it('holds groups of two or more distinct single lower-case words', () => {
    expect(SYNONYM_GROUPS.length).toBeGreaterThan(50);
    for (const group of SYNONYM_GROUPS) {
      expect(group.length, group.join(', ')).toBeGreaterThanOrEqual(2);
      expect(new Set(group).size, `a word twice in ${group.join(', ')}`).toBe(group.length);
      for (const w of group) expect(w, `${w} in ${group.join(', ')}`).toMatch(/^[a-z0-9]+$/);
      // Two words of one stem would relate a word to itself.
      expect(new Set(group.map(stem)).size, `two forms of one word in ${group.join(', ')}`).toBe(group.length);
    }
  });

  it('relates the words of the domain the issue names', () => {
    expectRelated([
      ['wipe', 'zeroize'],
      ['scrub', 'zeroize'],
      ['slides', 'deck'],
      ['deck', 'presentation'],
      ['presentation', 'pptx'],
      ['spreadsheet', 'xlsx'],
      ['excel', 'spreadsheet'],
      ['fuzz', 'harness'],
      ['fuzzer', 'fuzzing'],
    ]);
    expect(relatedStems(stem('deck'))).not.toContain(stem('deck'));
    expect(relatedStems('no-such-word')).toEqual([]);
  });

  it('relates everyday words to the words skills use', () => {
    expectRelated([
      ['image', 'visual'],
      ['prettier', 'aesthetic'],
      ['homepage', 'website'],
      ['broke', 'bug'],
      ['fails', 'failure'],
      ['stashing', 'worktree'],
      ['staff', 'company'],
      ['ready', 'prepare'],
      ['ram', 'memory'],
      ['crc', 'checksum'],
    ]);
  });

  it("relates the words requests use for reviewers' remarks, helpers, gluing files, grading and memset", () => {
    expectRelated([
      ['remarks', 'comments'],
      ['helpers', 'agents'],
      ['workers', 'subagents'],
      ['glue', 'merge'],
      ['grade', 'maturity'],
      ['memset', 'zeroize'],
    ]);
  });

  it('relates a rundown to an overview, a dropper to malware, an alert to a finding, an auditor to an audit', () => {
    expectRelated([
      ['rundown', 'overview'],
      ['dropper', 'malware'],
      ['ransomware', 'malware'],
      ['alert', 'finding'],
      ['auditors', 'audit'],
    ]);
  });

  it('relates the names of classes of web vulnerability to a vulnerability', () => {
    expectRelated([
      ['xss', 'vulnerability'],
      ['sqli', 'vuln'],
      ['csrf', 'security'],
      ['ssrf', 'vulnerability'],
      ['rce', 'exploit'],
    ]);
  });

  it('relates units and the smallest unit of ether (wei) to dimensions and decimals', () => {
    expectRelated([
      ['units', 'dimensional'],
      ['unit', 'decimals'],
      ['wei', 'scaling'],
    ]);
  });

  it('relates publishing a project to a public release', () => {
    expectRelated([
      ['publish', 'public'],
      ['publishing', 'release'],
    ]);
  });

  it("relates a coin to a token (a cryptocurrency's)", () => {
    expectRelated([['coin', 'token']]);
  });

  it('relates the controls of a parameter (a slider, a knob, a dial) to a parameter', () => {
    expectRelated([
      ['sliders', 'parameters'],
      ['knobs', 'parameter'],
      ['dial', 'slider'],
    ]);
  });

  it('relates a note to a memo or a report (a written update)', () => {
    expectRelated([
      ['note', 'memo'],
      ['notes', 'report'],
    ]);
  });

  it('relates trimming and tuning a long job to optimizing it', () => {
    expectRelated([
      ['trim', 'optimize'],
      ['tunes', 'optimizes'],
    ]);
  });

  it('does not relate a task to a tool or format used in it', () => {
    // DWARF is the debug information of a binary, not debugging: "debugging" ranked dwarf-expert first by its name.
    expect(relatedStems(stem('debugging'))).not.toContain(stem('dwarf'));
    expect(relatedStems(stem('dwarf'))).toContain(stem('symbols'));
  });

  it('builds a symmetric table from groups, by stem, without chaining groups', () => {
    const t = buildTable([
      ['Slides', 'deck'],
      ['deck', 'pile'],
    ]);
    expect(t.get(stem('slides'))).toEqual([stem('deck')]);
    expect(new Set(t.get(stem('deck')))).toEqual(new Set([stem('slides'), stem('pile')]));
    // slides and pile share a group with deck, not with each other.
    expect(t.get(stem('pile'))).toEqual([stem('deck')]);
  });
});

describe('the phrase table (data)', () => {
  it('holds phrases of two words or more, each once, then single lower-case words they mean', () => {
    expect(PHRASES.length).toBeGreaterThan(10);
    expect(new Set(PHRASES.map((p) => p[0])).size).toBe(PHRASES.length);
    for (const [phrase, ...means] of PHRASES) {
      expect(phrase, phrase).toMatch(/^[a-z0-9]+(?: [a-z0-9]+)+$/);
      for (const m of means) expect(m, `${m} of "${phrase}"`).toMatch(/^[a-z0-9]+$/);
    }
  });

  it('finds a phrase by its stems ("carried out" holds "carry out"), as whole words only', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found('the plan was carried out')).toEqual(['carry out']);
    expect(found('deploy this static site')).toEqual(['static site']);
    expect(found('a static website')).toEqual([]);
  });

  it('reads everyday ways of asking why something happens as debugging', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    const means = (text: string) => PHRASES.find((p) => p[0] === text)!.slice(1);
    expect(found('the total is wrong, find out why')).toEqual(['find out why']);
    expect(found("what's causing the leak")).toEqual(['what causes']);
    expect(found('what is causing the leak')).toEqual(['what is causing']);
    for (const p of ['find out why', 'what causes', 'what is causing']) expect(means(p)).toContain('debug');
  });

  it('reads who may call a function as what is callable from outside (access control)', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found('who can call what in these contracts?')).toEqual(['who can call']);
    expect(found('grouped by who is allowed to call it')).toEqual(['allowed to call']);
    expect(parseQuery('who can call what in these contracts?').related.has(stem('callable'))).toBe(true);
  });

  it('reads getting past something as an obstacle to bypass', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found("the fuzzer can't get past signature verification")).toEqual(['get past']);
    expect(parseQuery("the fuzzer can't get past the checksum").related.has(stem('obstacles'))).toBe(true);
  });

  it('reads another model as a second opinion from outside', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found('get another model to look over my diff')).toEqual(['look over', 'another model']);
    expect(parseQuery('ask another model to review it').related.has(stem('opinion'))).toBe(true);
  });
});

describe('phrases in selection', () => {
  const skills = [
    { name: 'executing-plans', description: 'Use when you have a plan to execute, with review checkpoints.' },
    { name: 'writing-plans', description: 'Use when you have requirements for a task: write the plan.' },
    { name: 'semgrep', description: 'Run a SAST scan over a codebase.' },
  ];

  it('gives a request holding a phrase the words it means, as strong as the words themselves', () => {
    const r = selectSkills('carry out the plan', skills, { max: 3 });
    expect(r.selected[0]!.name).toBe('executing-plans');
    expect(r.selected[0]!.matched).toEqual([
      'relevance: plan (name, description), carry out ~ a related word (name, description)',
    ]);
    // Without the phrase, "carry" alone relates to execute as any related word does: weaker.
    const alone = selectSkills('carry the plan', skills, { max: 3 });
    expect(alone.ranked[0]!.score).toBeLessThan(r.ranked[0]!.score);
  });

  it('keeps the words of a phrase in its sense: the "static" of "static site" is no static analysis', () => {
    expect(parseQuery('run static checks').related.has(stem('sast'))).toBe(true);
    expect(parseQuery('deploy this static site').related.has(stem('sast'))).toBe(false);
    expect(selectSkills('deploy this static site', skills, { max: 3 }).ranked).toEqual([]);
    expect(selectSkills('run a static scan', skills, { max: 1 }).selected.map((s) => s.name)).toEqual(['semgrep']);
  });
});

describe('executing is not implementing', () => {
  it('relates carrying out and running to executing, not to implementing (a feature, a spec)', () => {
    expect(relatedStems(stem('execute'))).toContain(stem('carry'));
    expect(relatedStems(stem('execute'))).not.toContain(stem('implement'));
    expect(relatedStems(stem('implement'))).not.toContain(stem('run'));
  });
});

describe('a feature is not a branch', () => {
  it('does not relate the two: finishing a feature is not finishing a branch', () => {
    expect(relatedStems(stem('feature'))).not.toContain(stem('branch'));
    expect(relatedStems(stem('branch'))).not.toContain(stem('feature'));
  });
});

describe('docs are not a spec', () => {
  it('relates docs to documentation and a spec to a specification or whitepaper, not docs to a spec', () => {
    expect(relatedStems(stem('docs'))).toContain(stem('documentation'));
    expect(relatedStems(stem('spec'))).toContain(stem('specification'));
    expect(relatedStems(stem('spec'))).toContain(stem('whitepaper'));
    expect(relatedStems(stem('docs'))).not.toContain(stem('spec'));
  });
});

describe('word by word', () => {
  it('is streaming, not a Word document', () => {
    expect(parseQuery('a word file').related.has(stem('docx'))).toBe(true);
    const q = parseQuery('show the answer word by word as it arrives');
    expect(q.related.has(stem('docx'))).toBe(false);
    expect(q.related.has(stem('streaming'))).toBe(true);
  });
});

describe('a design doc', () => {
  const skills = [
    { name: 'doc-coauthoring', description: 'Co-author documentation, proposals and technical specs.' },
    { name: 'frontend-design', description: 'Give a web interface a distinctive visual style.' },
  ];

  it('is a document, not visual design: its "design" is not widened to style', () => {
    expect(parseQuery('redo the design').related.has(stem('style'))).toBe(true);
    expect(parseQuery('write a design doc').related.has(stem('style'))).toBe(false);
    expect(selectSkills('help me write a design doc', skills, { max: 3 }).selected.map((s) => s.name)).toEqual([
      'doc-coauthoring',
    ]);
  });
});

describe('related words in selection', () => {
  const skills = [
    { name: 'slides', description: 'Create and edit PowerPoint presentations.' },
    { name: 'mail', description: 'Send email.' },
  ];

  it('finds a skill through a word related to the query word, and says so', () => {
    const r = selectSkills('make a deck for Monday', skills, { max: 3 });
    expect(r.selected.map((s) => s.name)).toEqual(['slides']);
    expect(r.selected[0]!.matched).toEqual(['relevance: deck ~ a related word (name, description)']);
  });

  it('ranks the word itself above a related one', () => {
    const c = [
      { name: 'a', description: 'Edit presentations.' },
      { name: 'b', description: 'Edit decks.' },
    ];
    expect(selectSkills('edit my deck', c, { max: 3 }).ranked.map((s) => s.name)).toEqual(['b', 'a']);
  });
});

describe('done is not fixed, nor passing', () => {
  it('relates done to complete and finished only: a fix, a passing test say what was done, not that it is', () => {
    expect(relatedStems(stem('done'))).toContain(stem('complete'));
    expect(relatedStems(stem('done'))).toContain(stem('finished'));
    expect(relatedStems(stem('done'))).not.toContain(stem('fixed'));
    expect(relatedStems(stem('done'))).not.toContain(stem('passing'));
    expect(relatedStems(stem('passes'))).not.toContain(stem('finishing'));
  });

  it('reads looking a change over, a (fresh) pair of eyes, as a review', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found('get someone to look it over before I merge')).toEqual(['look it over']);
    expect(found('can you look over my diff')).toEqual(['look over']);
    expect(found('I would like a fresh pair of eyes on it')).toEqual(['pair of eyes']);
    expect(parseQuery('look it over before I merge').related.has(stem('review'))).toBe(true);
  });
});

describe('a codebase at a glance', () => {
  it('reads ways in as entry points, what it pulls in as dependencies, at a glance as an overview', () => {
    const q = parseQuery('this repo at a glance: its languages, how many ways in, what it pulls in');
    expect(phrasesIn(q.stemsJoined).map((p) => p.text)).toEqual(['at a glance', 'ways in', 'pulls in']);
    for (const w of ['overview', 'entrypoint', 'dependency']) expect(q.related.has(stem(w)), w).toBe(true);
    // The "pull" of "pulls in" is no pull request.
    expect(q.related.has(stem('pr'))).toBe(false);
    expect(phrasesIn(parseQuery('does this open a new way in?').stemsJoined).map((p) => p.text)).toEqual(['ways in']);
  });
});

describe('no code yet', () => {
  it('reads asking for no code yet as asking for the requirements first', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found("give me a plan for adding dark mode, don't code yet")).toEqual(['dont code']);
    expect(found('just outline the steps, no code')).toEqual(['no code']);
    expect(found('Before you write any code, help me figure out what it should do')).toEqual(['write any code']);
    expect(found('talk it through with me before building')).toEqual(['before building']);
    expect(parseQuery('outline the steps, no code').related.has(stem('requirements'))).toBe(true);
    expect(found('scan the code for secrets')).toEqual([]);
  });
});

describe('stuck, and Rails', () => {
  it('relates being stuck to an obstacle, and Rails and gems to Ruby', () => {
    expectRelated([
      ['stuck', 'obstacle'],
      ['blocker', 'obstacles'],
      ['rails', 'ruby'],
      ['gem', 'ruby'],
    ]);
  });
});

describe('flagged', () => {
  it('relates what a scanner flags to a finding or an alert', () => {
    expectRelated([
      ['flagged', 'finding'],
      ['flags', 'alert'],
    ]);
  });
});

describe('elsewhere, and a working copy', () => {
  it('reads anywhere else as elsewhere (a variant), a working copy as a worktree', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found('same sqli pattern anywhere else? found one in users_controller')).toEqual(['anywhere else']);
    expect(found('is it somewhere else too')).toEqual(['somewhere else']);
    expect(found('separate working copy on a new branch for this hotfix')).toEqual(['working copy']);
    expect(parseQuery('same bug anywhere else?').related.has(stem('variant'))).toBe(true);
    expect(parseQuery('a separate working copy').related.has(stem('worktree'))).toBe(true);
    // Its words alone are no checkout: "copy the working files".
    expect(found('copy the working files')).toEqual([]);
  });

  it('ranks the skill that finds variants, and the one for worktrees, first', () => {
    const c = [
      { name: 'vuln-scanner', description: 'Scans a codebase for vulnerabilities and unsafe patterns.' },
      { name: 'variant-finder', description: 'Finds variants of a bug elsewhere in the code, after one is found.' },
      { name: 'finishing-a-branch', description: 'Finish work on a branch: merge it, open a PR, or keep working.' },
      { name: 'worktrees', description: 'Create an isolated git worktree for a task.' },
    ];
    const first = (text: string) => selectSkills(text, c, { max: 3 }).ranked[0]?.name;
    expect(first('same sqli pattern anywhere else?')).toBe('variant-finder');
    expect(first('separate working copy on a new branch for this hotfix')).toBe('worktrees');
  });
});

describe('leaving the choice to the agent', () => {
  it('reads surprise me, dealer’s choice, whatever works as whatever (an arbitrary pick)', () => {
    const found = (text: string) => phrasesIn(parseQuery(text).stemsJoined).map((p) => p.text);
    expect(found('surprise me. pick whichever caching approach you like')).toEqual(['surprise me', 'pick whichever']);
    expect(found("eh, dealer's choice on the refactor")).toEqual(['dealer choice']);
    expect(found('eh, whatever works, go for it')).toEqual(['whatever works']);
    expect(found("I don't care which approach, it's up to you")).toEqual(['up to you', 'dont care which']);
    expect(parseQuery('dealer’s choice').related.has(stem('whatever'))).toBe(true);
    // Asking how the agent decides is no choice left to it.
    expect(found('how do you decide which of your skills to use?')).toEqual([]);
  });

  it('ranks the skill for nonchalant requests first', () => {
    const c = [
      {
        name: 'let-fate-decide',
        description: "Draws cards when the user says 'whatever' or arbitrarily picks between approaches.",
      },
      { name: 'web-design', description: 'Web pages with a bold choice of fonts and colours.' },
      { name: 'refactoring', description: 'Refactor code safely.' },
    ];
    const first = (text: string) => selectSkills(text, c, { max: 3 }).ranked[0]?.name;
    expect(first("dealer's choice on the refactor")).toBe('let-fate-decide');
  });
});

describe('an answer', () => {
  it('relates an answer to a response and a reply', () => {
    expectRelated([
      ['answer', 'response'],
      ['answering', 'reply'],
      ['respond', 'answer'],
    ]);
  });
});
