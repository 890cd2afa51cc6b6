import type { FolderScope } from '../skill/folders.js';

// How each agent turns the skills of its folders into the listing it puts in every prompt: which folder wins a
// name, how one skill is written, and how large the listing may grow. Data, with where each number comes from;
// an agent not named here documents none of it, and gets the defaults (project first, no budget).

export type BudgetUnit = 'characters' | 'tokens';

export interface ListingBudget {
  unit: BudgetUnit;
  limit: number;
  /** A variable that sets the limit instead, as the agent reads it. */
  env?: string;
  /** Where the number comes from. */
  basis: string;
}

export interface ListingRule {
  /** Which of the agent's folders wins when two hold a skill of one name. */
  first: FolderScope;
  /** How the agent writes one skill into its listing. */
  line: (name: string, description: string, file: string) => string;
  budget?: ListingBudget;
  /** Where the precedence and the line come from. */
  basis: string;
}

const nameAndDescription = (name: string, description: string) => `- ${name}: ${description}`;

export const DEFAULT_RULE: ListingRule = {
  first: 'project',
  line: nameAndDescription,
  basis: 'no documented precedence or budget: project skills first, one "- name: description" line each',
};

/** The agents that document their listing, by agent id (skill/agents.ts). */
export const LISTING_RULES: Readonly<Record<string, ListingRule>> = {
  'claude-code': {
    first: 'user',
    line: nameAndDescription,
    budget: {
      unit: 'characters',
      limit: 8000,
      env: 'SLASH_COMMAND_TOOL_CHAR_BUDGET',
      basis:
        'Claude Code lists skills within 1% of the context window, or 8,000 characters (docs: Skills, "skill descriptions")',
    },
    basis: 'Claude Code: personal skills (~/.claude/skills) override project skills (.claude/skills)',
  },
  codex: {
    first: 'project',
    line: (name, description, file) => `- ${name}: ${description} (file: ${file})`,
    budget: {
      unit: 'tokens',
      limit: 4000,
      basis: 'Codex lists skills within 2% of the context window: 4,000 tokens of a 200k-token window',
    },
    basis: 'Codex: repository skills come before user skills; each line names the SKILL.md file',
  },
};

/** The rule of an agent, and its budget as the environment sets it (a positive whole number replaces the limit). */
export function listingRule(agent: string, env: Record<string, string | undefined>): ListingRule {
  const rule = LISTING_RULES[agent] ?? DEFAULT_RULE;
  const set = rule.budget?.env ? env[rule.budget.env] : undefined;
  if (!rule.budget || set === undefined || !/^\d+$/.test(set.trim()) || Number(set) <= 0) return rule;
  return {
    ...rule,
    budget: { ...rule.budget, limit: Number(set), basis: `${rule.budget.env}=${set.trim()} (${rule.budget.basis})` },
  };
}
