// Sharing skills beyond one machine: `skills publish` (one skill to an npm-compatible registry, or into a static
// site's well-known folder) and `skills search` (the skills such a registry holds).
import type { Command } from 'commander';
import type { Kit } from './kit.js';

export function defineShare(program: Command, { act, examples }: Kit): void {
  program
    .command('publish')
    .description(
      'publish a skill as an npm package (@scope/<id>) to the registry .npmrc names, or with --well-known into a folder any static host serves',
    )
    .argument('[dir]', 'the skill folder (default: .)')
    .option('--scope <scope>', 'the npm scope (default: scope= in .npmrc)')
    .option('--tag <tag>', 'the dist-tag to point at this version', 'latest')
    .option('--access <access>', 'public or restricted (npmjs.org makes scoped packages restricted unless told)')
    .option('--well-known <dir>', 'write <dir>/.well-known/agent-skills/ (index.json and the skill) instead')
    .option('--dry-run', 'check the skill and show the package; publish nothing')
    .option('--json', 'print one JSON document')
    .addHelpText(
      'after',
      "\nThe registry is the scope's @scope:registry= in .npmrc, else registry=, else https://registry.npmjs.org/; the token is the registry's //host/:_authToken= (read from the project's .npmrc, ~/.npmrc and NPM_CONFIG_* variables, as npm reads them).\n\nExit codes: 0 published; 1 the skill has errors (validate and lint run first); 2 usage, auth, a version already published, or I/O.",
    )
    .addHelpText(
      'after',
      examples([
        'skills publish ./pdf --scope @acme',
        'skills publish ./pdf --scope @acme --tag next --dry-run',
        'skills publish ./pdf --well-known ./site',
      ]),
    )
    .action(act(async () => (await import('../commands/publish.js')).publish, ['dir']));

  program
    .command('search')
    .description('search an npm-compatible registry for skills (packages with the agentskills field)')
    .argument('<words...>', 'what to look for')
    .option('--scope <scope>', 'only packages of this scope, on its registry (default: scope= in .npmrc)')
    .option('--limit <n>', 'at most this many packages asked of the registry (default 20)')
    .option('--json', 'print {registry, hits: [{name, version, description, skills}], skipped}')
    .addHelpText(
      'after',
      '\nThe registry and its token are found as `skills publish` finds them (.npmrc, NPM_CONFIG_*).',
    )
    .addHelpText('after', examples(['skills search pdf', 'skills search invoices --scope @acme --json']))
    .action(act(async () => (await import('../commands/search.js')).search, ['words']));
}
