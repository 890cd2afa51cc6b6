import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOAD_INSTRUCTION,
  below,
  RELATIVE_LOCATIONS,
  breadcrumb,
  briefOf,
  escapeXml,
  fitBudget,
  relativePath,
  renderPrompt,
  skillContent,
  type PromptInput,
  type PromptSkill,
} from '../../../src/prompt/render.js';

const entry = (name: string, description: string, extra: { briefDescription?: string } = {}) => ({
  name,
  description,
  location: `/s/${name}/SKILL.md`,
  ...extra,
});

const webScraping: PromptSkill = {
  name: 'web-scraping',
  title: 'Web Scraping',
  version: '1.2.0',
  root: '/s/web-scraping',
  instructions: '# Web Scraping\n\nFetch, then parse.\n',
  files: ['references/selectors.md', 'scripts/scraper.py'],
  tools: [{ path: 'scripts/scraper.py', description: 'Extract elements by tag name.' }, { path: 'scripts/raw.sh' }],
  mcpServers: [
    { name: 'browser', type: 'local', command: 'node', args: ['server.js'] },
    { name: 'search', type: 'remote', url: 'https://mcp.example.com' },
  ],
};

const base = (over: Partial<PromptInput> = {}): PromptInput => ({
  tier: 'catalog',
  catalog: [
    entry('web-scraping', 'Extract data from web pages. Use when scraping.'),
    entry('data-analysis', 'Analyse numbers. Use when asked for stats.'),
  ],
  active: [],
  ...over,
});

describe('renderPrompt: tiers', () => {
  it('none prints nothing at all, in both formats', () => {
    expect(renderPrompt(base({ tier: 'none' }), 'markdown')).toBe('');
    expect(renderPrompt(base({ tier: 'none' }), 'xml')).toBe('');
  });

  it('an empty catalog prints no empty block, even at the catalog tier', () => {
    expect(renderPrompt(base({ catalog: [] }), 'markdown')).toBe('');
    expect(renderPrompt(base({ catalog: [] }), 'xml')).toBe('');
  });

  it('breadcrumb is one line with the number of skills', () => {
    expect(renderPrompt(base({ tier: 'breadcrumb' }), 'markdown')).toBe('[2 skills available]\n');
    expect(renderPrompt(base({ tier: 'breadcrumb' }), 'xml')).toBe('[2 skills available]\n');
    expect(breadcrumb(1)).toBe('[1 skill available]');
  });

  it('catalog (markdown): heading, the loading instruction, one line per skill with its location', () => {
    expect(renderPrompt(base(), 'markdown')).toBe(
      [
        '# Available Skills',
        '',
        LOAD_INSTRUCTION,
        '',
        '- web-scraping: Extract data from web pages. Use when scraping. (/s/web-scraping/SKILL.md)',
        '- data-analysis: Analyse numbers. Use when asked for stats. (/s/data-analysis/SKILL.md)',
        '',
      ].join('\n'),
    );
  });

  it('catalog (markdown): a description on several lines, with tabs, doubled or no-break spaces, is one line', () => {
    const out = renderPrompt(
      base({
        catalog: [entry('a', '  Reads\n  files.\tUse  when\u00a0asked. '), entry('b', 'Plain one line. Use when b.')],
      }),
      'markdown',
    );
    expect(out).toContain(
      '- a: Reads files. Use when asked. (/s/a/SKILL.md)\n- b: Plain one line. Use when b. (/s/b/SKILL.md)\n',
    );
    expect(briefOf(entry('c', 'First\nsentence.  Second one.'))).toBe('First sentence.');
  });

  it('catalog tier shows no instructions even when skills are active', () => {
    const out = renderPrompt(base({ active: [webScraping] }), 'markdown');
    expect(out).not.toContain('<skill_content');
    expect(out).not.toContain('# Available Tools');
  });

  it('full (markdown): seed 000 shape: soul, skills with ## Title (vX), tools, MCP tools', () => {
    const out = renderPrompt(
      base({ tier: 'full', active: [webScraping], soul: 'You are a careful bee.\n' }),
      'markdown',
    );
    expect(out.startsWith('# Soul\n\nYou are a careful bee.\n\n---\n\n# Available Skills\n\n')).toBe(true);
    expect(out).toContain(
      [
        '## Web Scraping (v1.2.0)',
        '',
        '<skill_content name="web-scraping">',
        '# Web Scraping',
        '',
        'Fetch, then parse.',
        '',
        'Skill directory: /s/web-scraping',
        'Relative paths in this skill are relative to the skill directory.',
        '',
        '<skill_resources>',
        '<file>references/selectors.md</file>',
        '<file>scripts/scraper.py</file>',
        '</skill_resources>',
        '</skill_content>',
        '',
        '---',
        '',
        '# Available Tools',
        '',
        '- web-scraping/scripts/scraper.py: Extract elements by tag name.',
        '- web-scraping/scripts/raw.sh',
        '',
        '# MCP Tools',
        '',
        '- browser (web-scraping): local, node server.js',
        '- search (web-scraping): remote, https://mcp.example.com',
        '',
      ].join('\n'),
    );
    expect(out.endsWith('https://mcp.example.com\n')).toBe(true);
  });

  it('full with no version has a bare heading; a v-prefixed version is not doubled', () => {
    expect(
      renderPrompt(base({ tier: 'full', active: [{ ...webScraping, version: undefined }] }), 'markdown'),
    ).toContain('\n## Web Scraping\n');
    expect(renderPrompt(base({ tier: 'full', active: [{ ...webScraping, version: 'v2.0.0' }] }), 'markdown')).toContain(
      '## Web Scraping (v2.0.0)',
    );
  });

  it('a soul alone is printed even at tier none', () => {
    expect(renderPrompt(base({ tier: 'none', soul: 'Soul.' }), 'markdown')).toBe('# Soul\n\nSoul.\n');
  });
});

describe('renderPrompt: xml', () => {
  it('is the reference block: every value on its own line, one final newline', () => {
    expect(renderPrompt(base(), 'xml')).toBe(
      '<available_skills>\n<skill>\n<name>\nweb-scraping\n</name>\n<description>\nExtract data from web pages. Use when scraping.\n</description>\n<location>\n/s/web-scraping/SKILL.md\n</location>\n</skill>\n' +
        '<skill>\n<name>\ndata-analysis\n</name>\n<description>\nAnalyse numbers. Use when asked for stats.\n</description>\n<location>\n/s/data-analysis/SKILL.md\n</location>\n</skill>\n</available_skills>\n',
    );
  });

  it('escapes names and descriptions as html.escape does; locations stay as they are (skills-ref 0.1.1)', () => {
    const out = renderPrompt(
      base({
        catalog: [{ name: 'a&b', description: `Use <foo> & "bar" 'baz'\nsecond line`, location: '/s/a&b/SKILL.md' }],
      }),
      'xml',
    );
    expect(out).toContain('<name>\na&amp;b\n</name>');
    expect(out).toContain(
      '<description>\nUse &lt;foo&gt; &amp; &quot;bar&quot; &#x27;baz&#x27;\nsecond line\n</description>',
    );
    expect(out).toContain('<location>\n/s/a&b/SKILL.md\n</location>');
    expect(escapeXml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#x27;');
  });

  it('full adds a <skill_content> block per active skill after the catalog, soul first', () => {
    const out = renderPrompt(base({ tier: 'full', active: [webScraping], soul: 'Soul.' }), 'xml');
    expect(out.startsWith('Soul.\n\n<available_skills>\n')).toBe(true);
    expect(out).toContain('</available_skills>\n\n<skill_content name="web-scraping">\n# Web Scraping');
    expect(out.endsWith('</skill_content>\n')).toBe(true);
  });

  it('skill_content escapes the name attribute and file names, and caps the file list', () => {
    const many = Array.from({ length: 105 }, (_, i) => `assets/f${String(i).padStart(3, '0')}.txt`);
    const out = skillContent({ ...webScraping, name: 'a"b', files: ['x<y>.md', ...many] });
    expect(out.startsWith('<skill_content name="a&quot;b">')).toBe(true);
    expect(out).toContain('<file>x&lt;y&gt;.md</file>');
    expect(out).toContain('<!-- and 6 more files -->');
    expect(out).not.toContain('f104');
  });
});

describe('renderPrompt: locations relative to a base folder (render-prompt --write)', () => {
  it('markdown: each location relative to the base, with /, and the loading instruction says so', () => {
    const out = renderPrompt(base({ base: '/s' }), 'markdown');
    expect(out).toContain(`${LOAD_INSTRUCTION} ${RELATIVE_LOCATIONS}\n`);
    expect(out).toContain('- web-scraping: Extract data from web pages. Use when scraping. (web-scraping/SKILL.md)\n');
    expect(out).not.toContain('/s/');
  });

  it('full: the skill directory is relative too; a skill outside the base is reached with ..', () => {
    const out = renderPrompt(base({ tier: 'full', active: [webScraping], base: '/s/project' }), 'markdown');
    expect(out).toContain('Skill directory: ../web-scraping\n');
    expect(out).toContain('(../data-analysis/SKILL.md)');
  });

  it('xml: the reference block, its locations relative, and no added sentence', () => {
    const out = renderPrompt(base({ base: '/s' }), 'xml');
    expect(out).toContain('<location>\nweb-scraping/SKILL.md\n</location>');
    expect(out).not.toContain(RELATIVE_LOCATIONS);
  });

  it('without a base nothing changes', () => {
    expect(renderPrompt(base(), 'markdown')).not.toContain(RELATIVE_LOCATIONS);
    expect(renderPrompt(base(), 'markdown')).toContain('(/s/web-scraping/SKILL.md)');
  });

  it('relativePath gives "." for the base itself', () => {
    expect(relativePath('/s', '/s')).toBe('.');
    expect(relativePath('/s', '/s/a/b')).toBe('a/b');
  });
});

describe('briefOf', () => {
  it('prefers brief_description, else the first sentence', () => {
    expect(briefOf(entry('a', 'First sentence. Second one.', { briefDescription: 'Brief.' }))).toBe('Brief.');
    expect(briefOf(entry('a', 'First sentence. Second one.'))).toBe('First sentence.');
    expect(briefOf(entry('a', 'No full stop at all'))).toBe('No full stop at all');
    expect([...briefOf(entry('a', 'x'.repeat(300)))].length).toBe(160);
  });
});

describe('fitBudget', () => {
  // One token per word: easy to reason about, and fitBudget only needs a counter.
  const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
  const second: PromptSkill = {
    ...webScraping,
    name: 'data-analysis',
    title: 'Data Analysis',
    instructions: 'word '.repeat(200),
    tools: [],
    mcpServers: [],
    files: [],
  };
  const full = base({ tier: 'full', active: [webScraping, second] });

  it('without a budget renders as is and counts', async () => {
    const f = await fitBudget(full, 'markdown', words);
    expect(f.dropped).toEqual([]);
    expect(f.prompt).toBe(renderPrompt(full, 'markdown'));
    expect(f.tokens).toBe(words(f.prompt));
  });

  it('drops instructions lowest ranked first, and stops as soon as it fits', async () => {
    const all = words(renderPrompt(full, 'markdown'));
    const withoutSecond = words(renderPrompt({ ...full, active: [webScraping] }, 'markdown'));
    const f = await fitBudget(full, 'markdown', words, all - 1);
    expect(f.dropped).toEqual([{ what: 'instructions', skill: 'data-analysis' }]);
    expect(f.tokens).toBe(withoutSecond);
    expect(f.prompt).toContain('<skill_content name="web-scraping">');
    expect(f.over).toBe(false);
  });

  it('then shortens descriptions, then drops them; says when it still does not fit', async () => {
    const f = await fitBudget(full, 'markdown', words, 5);
    expect(f.dropped).toEqual([
      { what: 'instructions', skill: 'data-analysis' },
      { what: 'instructions', skill: 'web-scraping' },
      { what: 'descriptions', to: 'brief' },
      { what: 'descriptions', to: 'none' },
    ]);
    expect(f.prompt).toContain('- web-scraping (/s/web-scraping/SKILL.md)');
    expect(f.over).toBe(true);
  });

  it('brief descriptions are the first sentence in markdown, and xml loses <description> when they go', async () => {
    const briefOnly = await fitBudget(base(), 'markdown', words, words(renderPrompt(base(), 'markdown')) - 1);
    expect(briefOnly.dropped).toEqual([{ what: 'descriptions', to: 'brief' }]);
    expect(briefOnly.prompt).toContain('- web-scraping: Extract data from web pages. (/s/web-scraping/SKILL.md)');
    const bare = await fitBudget(base(), 'xml', words, 1);
    expect(bare.prompt).not.toContain('<description>');
    expect(bare.prompt).toContain('<name>\nweb-scraping\n</name>\n<location>');
  });

  it('a breadcrumb has nothing to drop', async () => {
    const f = await fitBudget(base({ tier: 'breadcrumb' }), 'markdown', words, 1);
    expect(f.dropped).toEqual([]);
    expect(f.over).toBe(true);
  });
});

describe('relativePath', () => {
  it('gives what node:path gives, below the base or not, in normal form or not', () => {
    const bases = ['/p', '/p/', '/', '/p/q/..', 'rel/p', '/p/./q'];
    const paths = [
      '/p/a/SKILL.md',
      '/p',
      '/p/',
      '/pa/b',
      '/p/../x',
      '/p/a//b',
      '/p/a/./b',
      '/p/a/..',
      '/q/a',
      '/p/.hidden/x',
      '/p/a..b/c',
      '/p/...',
    ];
    for (const base of bases)
      for (const path of paths) {
        expect(relativePath(base, path), `${base} ${path}`).toBe(relative(base, path).split(sep).join('/') || '.');
        const fast = below(base, path);
        if (fast !== undefined) expect(fast).toBe(relative(base, path));
      }
    expect(below('/p', '/p/a/SKILL.md')).toBe('a/SKILL.md');
    expect(below('/', '/a/b')).toBe('a/b');
  });
});
