import type { Context } from './context.js';
import { isSkillsError } from './errors.js';
import { followIndex, type IndexFollower } from './registry/followers.js';

// Every write of a registry's index also writes its selection index (render-prompt reads it instead of index.json);
// the code that builds it is loaded only by a run that writes a registry.
const selectionIndex: IndexFollower = async (dir, index, before) =>
  (await import('./prompt/selection-index.js')).followRegistryIndex(dir, index, before);

/** Run the CLI: the one place that catches errors and picks the exit code (0 ok, 1 findings, 2 failure). */
export async function run(argv: string[], ctx: Context): Promise<number> {
  followIndex(selectionIndex);
  const json =
    argv.includes('--json') ||
    argv.some((a, i) => (a === '--format' || a === '-f') && (argv[i + 1] === 'json' || argv[i + 1] === 'sarif')) ||
    argv.includes('--format=json') ||
    argv.includes('--format=sarif');
  // A failure of a run asked for SARIF is still a SARIF log (upload-sarif reads it), not {"error": …}; with --json
  // too (refused: two formats), the error is the JSON document --json promises.
  const sarif =
    !argv.includes('--json') &&
    (argv.some((a, i) => (a === '--format' || a === '-f') && argv[i + 1] === 'sarif') ||
      argv.includes('--format=sarif'));
  const failedAs = async (error: { code: string; message: string; hint?: string }, code: number) => {
    const { sarifFailure } = await import('./lint/formatters/sarif.js');
    const { safeJson } = await import('./ui/terminal-text.js');
    ctx.stdout.write(`${safeJson(sarifFailure(error, { cwd: ctx.cwd, version: ctx.version, exitCode: code }))}\n`);
  };
  let exitCode = 0;
  try {
    const { buildProgram } = await import('./cli/program.js');
    const { CommanderError } = await import('commander');
    const program = buildProgram(
      ctx,
      (code) => {
        exitCode = code;
      },
      argv,
    );
    // Every command, nested ones too (`registry sync`): help and usage errors go to ctx's streams, and end here.
    const output = { writeOut: (s: string) => ctx.stdout.write(s), writeErr: (s: string) => ctx.stderr.write(s) };
    for (const cmds = [program]; cmds.length > 0;) {
      const cmd = cmds.pop()!;
      cmd.exitOverride().configureOutput(output);
      cmds.push(...cmd.commands);
    }
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (err) {
      if (err instanceof CommanderError) {
        // --help and --version end through here with code 0; usage errors were already printed.
        if (err.exitCode !== 0 && sarif)
          await failedAs({ code: 'E_USAGE', message: err.message.replace(/^error: /, '') }, 2);
        return err.exitCode === 0 ? 0 : 2;
      }
      throw err;
    }
    return exitCode;
  } catch (caught) {
    // An errno error (a full disk, a read-only folder) is a failure of the system, not a bug: told as E_IO.
    const { errnoIn, ioError, refineIoError } = await import('./fs/errno.js');
    const errno = isSkillsError(caught) ? undefined : errnoIn(caught);
    const err = isSkillsError(caught) ? refineIoError(caught) : errno ? ioError(errno) : caught;
    if (isSkillsError(err)) {
      // A message may quote a stranger's skill (a name, a path, a value): never its control characters.
      const { forTerminal, safeJson } = await import('./ui/terminal-text.js');
      const error = { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) };
      if (sarif) {
        await failedAs(error, 2);
        ctx.stderr.write(forTerminal(`error: ${err.message}\n${err.hint ? `hint: ${err.hint}\n` : ''}`));
      } else if (json) {
        ctx.stdout.write(safeJson({ error }) + '\n');
      } else {
        ctx.stderr.write(forTerminal(`error: ${err.message}\n${err.hint ? `hint: ${err.hint}\n` : ''}`));
      }
      return 2;
    }
    const e = err as Error;
    if (sarif) await failedAs({ code: 'E_INTERNAL', message: String(e?.message ?? e) }, 2);
    else if (json)
      ctx.stdout.write(JSON.stringify({ error: { code: 'E_INTERNAL', message: String(e?.message ?? e) } }) + '\n');
    ctx.stderr.write(
      `${e?.stack ?? String(e)}\n\nThis is a bug in skills ${ctx.version}; please report it with the command you ran.\n`,
    );
    return 2;
  }
}
