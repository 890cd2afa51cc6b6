import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSkill } from '../../../src/skill/load.js';
import { MAX_QUERY_CHARS, hasTriggers, selectSkills, type SelectionCandidate } from '../../../src/prompt/select.js';
import { requiredLiteral } from '../../../src/prompt/trigger-patterns.js';
import type { Skill } from '../../../src/model/skill.js';
import { FIXTURES } from '../../helpers/cli.js';

const top = (query: string, candidates: SelectionCandidate[], max = 3) => selectSkills(query, candidates, { max });
const names = (query: string, candidates: SelectionCandidate[], max = 3) =>
  top(query, candidates, max).selected.map((s) => s.name);

const toCandidate = (s: Skill): SelectionCandidate => ({
  name: s.name,
  description: s.description,
  briefDescription: s.briefDescription,
  keywords: s.triggers?.keywords,
  verbs: s.triggers?.verbs,
  patterns: s.triggers?.patterns,
});

describe('hasTriggers', () => {
  it('is true when any candidate declares a keyword, verb or pattern', () => {
    expect(hasTriggers([{ name: 'a', description: 'x' }])).toBe(false);
    expect(hasTriggers([{ name: 'a', description: 'x', keywords: [], verbs: [], patterns: [] }])).toBe(false);
    expect(
      hasTriggers([
        { name: 'a', description: 'x' },
        { name: 'b', description: 'y', patterns: ['z'] },
      ]),
    ).toBe(true);
  });
});

describe('ranking classes', () => {
  it('puts an explicit mention of the name before a trigger match', () => {
    const c = [
      { name: 'scraper-tools', description: 'Helpers.', keywords: ['scraping', 'web'] },
      { name: 'web-scraping', description: 'Extract data from pages.' },
    ];
    const r = top('do some web scraping of this page', c);
    expect(r.selected.map((s) => [s.name, s.kind])).toEqual([
      ['web-scraping', 'mention'],
      ['scraper-tools', 'trigger'],
    ]);
    expect(r.selected[0]!.matched[0]).toBe('name "web-scraping" mentioned');
    // As written, hyphen and all.
    expect(top('run web-scraping now', c).selected[0]).toMatchObject({ name: 'web-scraping', kind: 'mention' });
  });

  it('does not count a name made of stop words as mentioned', () => {
    const r = top('what is it for', [{ name: 'it', description: 'Information technology help desk.' }]);
    expect(r.ranked).toEqual([]);
  });

  it('puts an exact phrase of the description before a trigger match', () => {
    const c = [
      { name: 'headline-bot', description: 'Posts summaries.', keywords: ['headlines'] },
      { name: 'news-reader', description: 'Collects news headlines from sites you follow.' },
    ];
    const r = top('news headlines', c);
    expect(r.selected.map((s) => [s.name, s.kind])).toEqual([
      ['news-reader', 'phrase'],
      ['headline-bot', 'trigger'],
    ]);
    expect(r.selected[0]!.matched).toContain('phrase "news headlines" in description');
  });

  it('finds the phrase in a keyword or the brief description too, but never across two keywords', () => {
    expect(top('tax return', [{ name: 'a', description: 'Taxes.', keywords: ['tax return'] }]).selected[0]!.kind).toBe(
      'phrase',
    );
    expect(
      top('tax return', [{ name: 'a', description: 'Taxes.', briefDescription: 'Files a tax return.' }]).selected[0]!
        .kind,
    ).toBe('phrase');
    expect(
      top('tax return', [{ name: 'a', description: 'Taxes.', keywords: ['tax', 'return'] }]).selected[0]!.kind,
    ).toBe('trigger');
  });

  it('puts a trigger match before relevance alone', () => {
    const c = [
      { name: 'invoices', description: 'Invoice parsing: read an invoice, total an invoice, file an invoice.' },
      { name: 'books', description: 'Bookkeeping for small firms.', keywords: ['invoice'] },
    ];
    const r = top('read this invoice', c);
    expect(r.selected.map((s) => [s.name, s.kind])).toEqual([
      ['books', 'trigger'],
      ['invoices', 'relevance'],
    ]);
  });

  it('orders within a class by strength, then by name', () => {
    const c = [
      { name: 'b', description: 'Same text.', keywords: ['deploy'] },
      { name: 'a', description: 'Same text.', keywords: ['deploy'] },
      { name: 'c', description: 'Same text.', keywords: ['deploy'], verbs: ['ship'] },
    ];
    const r = top('deploy and ship it', c);
    expect(r.selected.map((s) => s.name)).toEqual(['c', 'a', 'b']);
    const scores = r.ranked.map((s) => s.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
  });

  it('gives scores that fall with rank across classes', () => {
    const c = [
      { name: 'web-scraping', description: 'Scrape pages.' },
      { name: 'b', description: 'Collects scrape prices lists.' },
      { name: 'c', description: 'Other.', keywords: ['prices'] },
      { name: 'd', description: 'Prices of things.' },
    ];
    const r = top('web scraping prices', c, 10);
    expect(r.ranked.map((s) => s.kind)).toEqual(
      ['mention', 'trigger', 'relevance', 'relevance'].slice(0, r.ranked.length),
    );
    const scores = r.ranked.map((s) => s.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    expect(Math.floor(r.ranked[0]!.score)).toBe(3);
  });
});

describe('triggers', () => {
  it('matches verbs and keywords by stem as well as as written', () => {
    const r = top('I am scraping prices', [
      { name: 'web', description: 'Pages.', verbs: ['scrape'], keywords: ['price'] },
    ]);
    expect(r.selected[0]!.matched).toEqual(
      expect.arrayContaining(['verb "scrape" (as "scraping")', 'keyword "price" (as "prices")']),
    );
    expect(names('analysing the numbers', [{ name: 'stats', description: 'Numbers.', verbs: ['analyze'] }])).toEqual([
      'stats',
    ]);
  });

  it('matches at word boundaries only: keyword "api" never matches inside "capital"', () => {
    const c = [{ name: 'rest', description: 'HTTP clients.', keywords: ['api'] }];
    expect(top('what is the capital of France', c).ranked).toEqual([]);
    expect(top('rapid prototyping', c).ranked).toEqual([]);
    expect(top('call the API', c).selected[0]!.kind).toBe('trigger');
    expect(top('which APIs exist', c).selected[0]!.matched[0]).toBe('keyword "api" (as "apis")');
  });

  it('matches a multi-word keyword as a phrase, not as scattered words', () => {
    const c = [{ name: 'review', description: 'Reviews.', keywords: ['pull request'] }];
    expect(top('open a pull request', c).selected[0]!.matched[0]).toBe('keyword "pull request"');
    expect(top('pull the request from the queue', c).ranked.filter((s) => s.kind === 'trigger')).toEqual([]);
  });

  it('matches a keyword holding symbols only as written', () => {
    const c = [{ name: 'cpp', description: 'Native code.', keywords: ['c++'] }];
    expect(top('C++ templates', c).selected[0]!.matched[0]).toBe('keyword "c++"');
    expect(top('c templates', c).ranked.filter((s) => s.kind === 'trigger')).toEqual([]);
  });

  it('ignores case and width (NFKC) in keywords and patterns', () => {
    const c = [{ name: 'docs', description: 'Documents.', keywords: ['PDF'], patterns: ['Greet\\s+\\w+'] }];
    expect(top('merge ＰＤＦ files', c).selected[0]!.matched[0]).toBe('keyword "PDF"');
    expect(top('GREET bob', c).selected[0]!.matched).toContain('pattern /Greet\\s+\\w+/');
  });

  it('reports a pattern RE2 cannot compile, skips it, and keeps the others', () => {
    const c = [
      { name: 'look', description: 'x', patterns: ['price(?=s)', '(a)\\1', '[unclosed', 'prices?'] },
      { name: 'other', description: 'y' },
    ];
    const r = top('show prices', c);
    expect(r.selected[0]!.matched).toEqual(['pattern /prices?/']);
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings[0]).toMatch(/^look: trigger pattern \/price\(\?=s\)\/ is skipped: .*\(\?=/);
    expect(r.warnings[1]).toMatch(/^look: trigger pattern \/\(a\)\\1\/ is skipped/);
    expect(r.warnings[2]).toMatch(/^look: trigger pattern \/\[unclosed\/ is skipped: missing closing \]/);
  });

  it('reports a lookahead whatever the query, even when the pattern is not compiled for it', () => {
    const c = [{ name: 'look', description: 'x', patterns: ['price(?=s)'] }];
    expect(top('unrelated words', c).warnings).toEqual([expect.stringMatching(/^look: trigger pattern/)]);
  });

  it('skips an over-long pattern with a warning', () => {
    const r = top('aaa', [{ name: 'long', description: 'x', patterns: ['a'.repeat(600)] }]);
    expect(r.ranked).toEqual([]);
    expect(r.warnings[0]).toMatch(/long: .*600 characters long/);
  });

  it('runs a classic ReDoS pattern in linear time', () => {
    const c = [{ name: 'redos', description: 'x', patterns: ['(a+)+$', '(x+x+)+y', '^(a|aa)+$'] }];
    const hostile = `${'a'.repeat(MAX_QUERY_CHARS - 1)}!`;
    expect(top(hostile, c).ranked).toEqual([]);
    expect(top(`${'x'.repeat(1000)}`, c).ranked).toEqual([]);
    // The same patterns still match what they should.
    expect(top('aaaa', c).selected[0]!.matched).toEqual(['pattern /(a+)+$/', 'pattern /^(a|aa)+$/']);
  }, 10_000);
});

describe('requiredLiteral', () => {
  it.each([
    ['scrap(e|ing)\\s+\\w+', 'scrap'],
    ['Greet\\s+\\w+', 'greet'],
    ['prices?', 'price'],
    ['ab{2,3}cd', 'cd'],
    ['[abc]xyz', 'xyz'],
    ['(?i)Hello', 'hello'],
    ['a|bc', undefined],
    ['\\d+\\s*x\\s*\\d+', undefined],
    ['foo\\Qbar\\E', undefined],
  ])('%s → %s', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });
});

describe('relevance', () => {
  it('finds a skill described with another form of the query words (stemming)', () => {
    const c = [
      { name: 'harvest', description: 'Scraping product pages for their pricing.' },
      { name: 'mail', description: 'Sends mail.' },
    ];
    const r = top('scrape prices', c);
    expect(r.selected.map((s) => [s.name, s.kind])).toEqual([['harvest', 'relevance']]);
    expect(r.selected[0]!.matched).toEqual(['relevance: scrape (description), prices (description)']);
  });

  it('weighs the name above keywords above the brief above the description', () => {
    const c = [
      { name: 'plain', description: 'Works with invoice files.' },
      { name: 'brief', description: 'Works with files.', briefDescription: 'invoice' },
      { name: 'invoice', description: 'Works with files.' },
    ];
    // In rank order (the two weaker are left out of the selection, under RELEVANCE_CUT of the first).
    expect(top('invoice', c).ranked.map((s) => s.name)).toEqual(['invoice', 'brief', 'plain']);
  });

  it('gives rare words more weight than common ones (IDF)', () => {
    const c = [
      { name: 'a', description: 'Convert report files.' },
      { name: 'b', description: 'Convert files.' },
      { name: 'c', description: 'Convert files.' },
      { name: 'd', description: 'Convert report files.' },
      { name: 'e', description: 'Render diagram files.' },
    ];
    // "files" is in every skill, "diagram" in one: the diagram skill wins though two words match elsewhere.
    expect(names('diagram files', c, 1)).toEqual(['e']);
  });

  it('selects nothing on stop words, and nothing on a word that half of a larger set shares', () => {
    const c = Array.from({ length: 10 }, (_, i) => ({
      name: `s${i}`,
      description: i < 6 ? 'Handles files.' : 'Draws shapes.',
    }));
    expect(top('please help me with the', c).ranked).toEqual([]);
    expect(top('files', c).ranked).toEqual([]);
    expect(names('shapes', c)).toEqual(['s6', 's7', 's8']);
  });

  it('leaves out a far weaker match than the best one', () => {
    const c = [
      { name: 'charts', description: 'Plot bar charts, line charts and scatter plots from tables.' },
      // About tables, as a skill says: a skill that said only "Edit tables." would hold too little of the request to
      // be selected at all ("none fits"), cut or not.
      { name: 'table-editor', description: 'Edit the rows and columns of tables.' },
      ...Array.from({ length: 8 }, (_, i) => ({ name: `x${i}`, description: 'Unrelated.' })),
    ];
    // table-editor holds "tables" alone: over the floor (RELATIVE_FLOOR) of what ranks, under the cut
    // (RELEVANCE_CUT) of what is selected after a better one.
    const tables = top('plot a scatter chart of the tables', c);
    expect(tables.selected.map((s) => s.name)).toEqual(['charts']);
    expect(tables.ranked.map((s) => [s.name, s.below])).toEqual([
      ['charts', undefined],
      [
        'table-editor',
        expect.stringMatching(
          /^it scores 0\.\d\d, under 0\.8 of the 0\.\d\d of charts, the best skill found by relevance: a skill much less relevant than one selected is left out$/,
        ),
      ],
    ]);
    expect(names('plot a scatter chart', c)).toEqual(['charts']);
    expect(top('plot a scatter chart', c).ranked.map((s) => s.name)).toEqual(['charts']);
  });

  it('does not fill the places with skills that share only a common verb with the query (seen on real skills)', () => {
    const c = [
      {
        name: 'mcp-builder',
        description:
          'Guide for creating high-quality MCP servers. Use when building MCP servers to integrate external APIs.',
      },
      {
        name: 'skill-creator',
        description: 'Guide for creating effective skills. Use when users want to create a new skill.',
      },
      { name: 'apple-notes', description: 'Create, search and edit notes in Apple Notes.' },
      ...Array.from({ length: 6 }, (_, i) => ({ name: `x${i}`, description: 'Unrelated.' })),
    ];
    expect(names('create an MCP server', c)).toEqual(['mcp-builder']);
  });

  it('folds accents on Latin letters and splits unspaced scripts into words', () => {
    expect(names('update my resume', [{ name: 'cv', description: 'Write a résumé.' }])).toEqual(['cv']);
    const ja = [
      { name: 'tenki', description: '天気予報を取得します。' },
      { name: 'seikyu', description: '請求書を処理します。' },
    ];
    // The particle を is in both; only 天気 (weather) says which skill is meant.
    expect(top('東京の天気を教えて', ja).ranked.map((s) => s.name)).toEqual(['tenki']);
  });
});

describe('limits', () => {
  const c = [{ name: 'web', description: 'Scrape pages.', keywords: ['scrape'] }];

  it('selects nothing for an empty or blank query', () => {
    expect(top('', c)).toEqual({ selected: [], ranked: [], warnings: [] });
    expect(top('   \n\t', c)).toEqual({ selected: [], ranked: [], warnings: [] });
  });

  it('returns at most `max`, and every match in `ranked`', () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ name: `s${i}`, description: 'x', keywords: ['deploy'] }));
    const r = top('deploy', many, 2);
    expect(r.selected.map((s) => s.name)).toEqual(['s0', 's1']);
    expect(r.ranked).toHaveLength(5);
    expect(top('deploy', many, 0).selected).toEqual([]);
  });

  it('cuts a long query, says so, and matches nothing past the cut', () => {
    const long = `${'lorem '.repeat(MAX_QUERY_CHARS / 6 + 10)} scrape`;
    const r = top(long, c);
    expect(r.ranked).toEqual([]);
    expect(r.warnings).toEqual([
      `the query is ${long.length} characters long; only the first ${MAX_QUERY_CHARS} are used for selection`,
    ]);
  });

  it('ranks a large set and still finds the one skill that fits', () => {
    const words = ['convert', 'merge', 'split', 'render', 'check', 'pdf', 'csv', 'image', 'report', 'log'];
    const big = Array.from({ length: 10_000 }, (_, i) => ({
      name: `skill-${i}`,
      description: `${words[i % 10]} ${words[(i * 7) % 10]} files and check the result.`,
      keywords: i % 4 === 0 ? [words[(i * 3) % 10]!] : undefined,
      patterns: i % 8 === 0 ? [`${words[i % 10]}\\s+\\w+`] : undefined,
    }));
    big.push({
      name: 'weather',
      description: 'Forecasts for a city: rain, wind, temperature.',
      keywords: undefined,
      patterns: undefined,
    });
    const r = top('will it rain in Oslo', big);
    expect(r.selected.map((s) => s.name)).toEqual(['weather']);
  });
});

interface QueryCase {
  query: string;
  expected: string;
  why: string;
}

describe('quality: the selection query set', () => {
  const root = join(FIXTURES, 'selection');
  const skills = readdirSync(join(root, 'skills'))
    .sort()
    .map((d) => loadSkill(join(root, 'skills', d)));
  const candidates = skills.map(toCandidate);
  // Expected skills are named by folder (id); a manifest's display name may differ.
  const nameOf = new Map(skills.map((s) => [s.id, s.name]));
  const queries = JSON.parse(readFileSync(join(root, 'queries.json'), 'utf8')) as QueryCase[];

  it('has at least 20 varied skills, some with triggers and some manifests, and at least 30 queries', () => {
    expect(skills.length).toBeGreaterThanOrEqual(20);
    expect(skills.filter((s) => s.layout === 'manifest').length).toBeGreaterThan(0);
    expect(skills.filter((s) => s.triggers).length).toBeGreaterThan(0);
    expect(skills.filter((s) => !s.triggers).length).toBeGreaterThan(0);
    expect(queries.length).toBeGreaterThanOrEqual(30);
    for (const q of queries) expect(nameOf.has(q.expected), `${q.expected} is a skill of the set`).toBe(true);
  });

  it.each(queries)('$query → $expected', ({ query, expected }) => {
    const r = selectSkills(query, candidates, { max: 3 });
    expect(r.warnings).toEqual([]);
    expect(r.selected[0]?.name).toBe(nameOf.get(expected));
  });
});
