import { skillMd, writeTree } from './tree.js';

/**
 * Two skills under `dir` whose names and descriptions say the same (monthly invoices and accounts); only the
 * instructions tell which reconciles invoices: accounts-b, which comes second in every order a catalog keeps (by
 * name), so that only its body can put it first for "reconcile the invoices".
 */
export function writeBodyOnlySkills(
  dir: string,
  description = 'Helps the finance team with its monthly invoices and accounts.',
): void {
  writeTree(dir, {
    'accounts-a/SKILL.md': skillMd(
      `name: accounts-a\ndescription: ${description}\n`,
      '# Payroll\n\nRun the payroll: salaries, pensions and the tax each employee owes, for every employee.\n',
    ),
    'accounts-b/SKILL.md': skillMd(
      `name: accounts-b\ndescription: ${description}\n`,
      '# Reconcile invoices\n\nMatch each invoice to its bank statement line. Reconcile the invoices left over by hand.\n',
    ),
  });
}
