import type { Diagnostic } from '../model/diagnostic.js';
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
  /**
   * What the agent is known to load a skill past: of validate's errors, those that make it leave the skill out.
   * Unset: every error does (the standard's rule, and all that can be said of an agent that documents none).
   */
  loads?: Leniency;
  /**
   * The agent also reads its project folder in folders below the project's top (a monorepo's packages), when it
   * works there: where that comes from. Unset: it reads the top's folder only, as far as anyone documents.
   */
  nested?: string;
  /**
   * How many folders below one of its skills folders the agent finds a SKILL.md (1: `<skills>/<name>/SKILL.md`
   * only), and where that comes from. Unset: at any depth, as skills' own search finds them.
   */
  depth?: { max: number; basis: string };
}

/** An agent that loads skills the standard calls invalid, when their errors are of kinds it does not mind. */
export interface Leniency {
  /** Whether this error makes the agent leave the skill out. */
  refuses: (d: Diagnostic) => boolean;
  /** A missing description is taken from the first paragraph of the instructions. */
  describesFromBody?: boolean;
  /** Where this comes from. */
  basis: string;
}

/** The error is one of these checks (by id), or a wrong type given to one of these fields. */
const oneOf =
  (ids: string[], typedFields: string[] = []) =>
  (d: Diagnostic): boolean =>
    ids.includes(d.ruleId) || (d.ruleId === 'SK015' && typedFields.includes(d.data?.field ?? ''));

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
    nested:
      'Claude Code finds the skills of a nested .claude/skills when it works with files in that folder (docs: Skills, "automatic discovery from nested directories")',
    depth: {
      max: 1,
      basis:
        'Claude Code reads <skills folder>/<name>/SKILL.md only, not a SKILL.md in a folder below that (anthropics/claude-code#18192, #39138, #20979; vercel-labs/agent-skills#122)',
    },
    loads: {
      // Left out: a file it cannot read, frontmatter left open, YAML that does not parse or is no mapping, a name
      // or description against the rules the docs give them. Loaded past: no frontmatter, no name (the folder's is
      // used), a name that is not the folder's, no description, and errors in fields it does not read.
      refuses: oneOf(
        ['SK002', 'SK003', 'SK004', 'SK006', 'SK007', 'SK008', 'SK009', 'SK012', 'SK018', 'SK019', 'SK033', 'SK038'],
        ['name', 'description'],
      ),
      describesFromBody: true,
      basis:
        "Claude Code: every frontmatter field is optional; name defaults to the folder's name and description to the first paragraph of the instructions (docs: Skills, frontmatter reference)",
    },
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
    nested:
      'Codex reads .agents/skills in the folder it starts in and in each folder above it up to the repository root (docs: Agent Skills, "where to save skills")',
    loads: {
      // Left out: a file it cannot read, no frontmatter or one left open, YAML that does not parse or is no
      // mapping, a metadata that is not one, a name or description missing, empty, of another type or too long.
      // Loaded past: everything else (the name's letters and case, a name that is not the folder's, other fields).
      refuses: oneOf(
        [
          'SK001',
          'SK002',
          'SK003',
          'SK004',
          'SK005',
          'SK006',
          'SK011',
          'SK012',
          'SK014',
          'SK018',
          'SK019',
          'SK033',
          'SK038',
        ],
        ['name', 'description', 'metadata'],
      ),
      basis:
        'Codex loads a SKILL.md whose frontmatter parses with a name of 1 to 64 characters and a description of 1 to 1,024; it checks nothing else (codex-rs/core/src/skills/loader.rs)',
    },
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
