import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE, LISTING_RULES, listingRule } from '../../../src/doctor/listing-rules.js';
import { AGENTS } from '../../../src/skill/agents.js';

describe('listingRule', () => {
  it('names only agents of the agents table', () => {
    const known = new Set(AGENTS.map((a) => a.name));
    expect(Object.keys(LISTING_RULES).filter((n) => !known.has(n))).toEqual([]);
  });

  it('gives Claude Code 8,000 characters with user skills first, Codex 4,000 tokens with project skills first', () => {
    const claude = listingRule('claude-code', {});
    expect(claude.first).toBe('user');
    expect(claude.budget).toMatchObject({ unit: 'characters', limit: 8000 });
    const codex = listingRule('codex', {});
    expect(codex.first).toBe('project');
    expect(codex.budget).toMatchObject({ unit: 'tokens', limit: 4000 });
    expect(codex.line('pdf', 'Fills PDFs.', '/p/pdf/SKILL.md')).toBe('- pdf: Fills PDFs. (file: /p/pdf/SKILL.md)');
    expect(claude.line('pdf', 'Fills PDFs.', '/p/pdf/SKILL.md')).toBe('- pdf: Fills PDFs.');
  });

  it('gives an agent that documents nothing the default: project first, no budget', () => {
    expect(listingRule('cursor', {})).toBe(DEFAULT_RULE);
    expect(DEFAULT_RULE.budget).toBeUndefined();
  });

  it("takes Claude Code's limit from SLASH_COMMAND_TOOL_CHAR_BUDGET when it is a positive whole number", () => {
    const set = listingRule('claude-code', { SLASH_COMMAND_TOOL_CHAR_BUDGET: ' 20000 ' });
    expect(set.budget?.limit).toBe(20000);
    expect(set.budget?.basis).toMatch(/^SLASH_COMMAND_TOOL_CHAR_BUDGET=20000 /);
    for (const bad of ['', '0', '-5', '1.5', 'lots'])
      expect(listingRule('claude-code', { SLASH_COMMAND_TOOL_CHAR_BUDGET: bad }).budget?.limit).toBe(8000);
  });
});
