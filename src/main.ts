import type { Context } from './context.js';
import { isSkillsError, SkillsError } from './errors.js';
import { followIndex, type IndexFollower } from './registry/followers.js';

// Every write of a registry's index also writes its selection index (render-prompt reads it instead of index.json);
// the code that builds it is loaded only by a run that writes a registry.
const selectionIndex: IndexFollower = async (dir, index, before) =>
  (await import('./prompt/selection-index.js')).followRegistryIndex(dir, index, before);

/** Run the CLI: the one place that catches errors and picks the exit code (0 ok, 1 findings, 2 failure). */
export async function run(argv: string[], ctx: Context): Promise<number> {
  followIndex(selectionIndex);
  // Our options come before `--`; what follows is a script's (run-script).
  const end = argv.indexOf('--');
  const ours = end === -1 ? argv : argv.slice(0, end);
  const json =
    ours.includes('--json') ||
    ours.some((a, i) => (a === '--format' || a === '-f') && (ours[i + 1] === 'json' || ours[i + 1] === 'sarif')) ||
    ours.includes('--format=json') ||
    ours.includes('--format=sarif');
  // A failure of a run asked for SARIF is still a SARIF log (upload-sarif reads it), not {"error": …}; with --json
  // too (refused: two formats), the error is the JSON document --json promises.
  const sarif =
    !ours.includes('--json') &&
    (ours.some((a, i) => (a === '--format' || a === '-f') && ours[i + 1] === 'sarif') ||
      ours.includes('--format=sarif'));
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
    // With --json, a usage error the option parser finds is the JSON document every failure is, on stdout, and
    // nothing on stderr: its text (with a command's own hint, as run-script adds) is kept for it.
    let usage = '';
    const writeErr = (s: string) => ctx.stderr.write(s);
    for (const cmds = [program]; cmds.length > 0;) {
      const cmd = cmds.pop()!;
      const own = cmd.configureOutput().outputError;
      const outputError = (text: string, write: (s: string) => void) => {
        const keep = json && !sarif ? (s: string) => void (usage += s) : write;
        if (own) own(text, keep);
        else keep(text);
      };
      cmd.exitOverride().configureOutput({ writeOut: (s: string) => ctx.stdout.write(s), writeErr, outputError });
      cmds.push(...cmd.commands);
    }
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (err) {
      if (err instanceof CommanderError) {
        // --help and --version end through here with code 0; usage errors were already printed (or kept, --json).
        if (err.exitCode !== 0 && sarif)
          await failedAs({ code: 'E_USAGE', message: err.message.replace(/^error: /, '') }, 2);
        else if (err.exitCode !== 0 && json) {
          const { safeJson } = await import('./ui/terminal-text.js');
          ctx.stdout.write(`${safeJson({ error: usageError(err.message, usage) })}\n`);
        }
        return err.exitCode === 0 ? 0 : 2;
      }
      throw err;
    }
    return exitCode;
  } catch (caught) {
    // An errno error (a full disk, a read-only folder) is a failure of the system, not a bug: told as E_IO.
    const { errnoIn, ioError, refineIoError } = await import('./fs/errno.js');
    const errno = isSkillsError(caught) ? undefined : errnoIn(caught);
    const err = isSkillsError(caught)
      ? refineIoError(caught)
      : errno
        ? ioError(errno)
        : cancelled(caught)
          ? new SkillsError('E_CANCELLED', 'cancelled at a prompt (Ctrl-C)', { cause: caught })
          : caught;
    if (isSkillsError(err)) {
      // A message may quote a stranger's skill (a name, a path, a value): never its control characters.
      const { forTerminal, safeJson } = await import('./ui/terminal-text.js');
      const error = { code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) };
      // Cancelled at a prompt (Ctrl-C): 128 + SIGINT, as a shell reports a command its Ctrl-C ended.
      const code = err.code === 'E_CANCELLED' ? 130 : 2;
      if (sarif) {
        await failedAs(error, code);
        ctx.stderr.write(forTerminal(`error: ${err.message}\n${err.hint ? `hint: ${err.hint}\n` : ''}`));
      } else if (json) {
        ctx.stdout.write(safeJson({ error }) + '\n');
      } else {
        ctx.stderr.write(forTerminal(`error: ${err.message}\n${err.hint ? `hint: ${err.hint}\n` : ''}`));
      }
      return code;
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

/** A prompt ended by Ctrl-C (@inquirer's ExitPromptError; install's pickers): the user cancelled, no bug. */
function cancelled(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}

/** The JSON error of a usage error the option parser found: its message, and the hint its text gives, if any. */
function usageError(message: string, text: string): { code: 'E_USAGE'; message: string; hint?: string } {
  // Commander puts its suggestion on a line of the message: "(Did you mean --strict?)".
  const [first, ...rest] = message.replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (.*)\?\)$/.exec(rest.join(' ').trim())?.[1];
  const hint = /^hint: (.*)$/m.exec(text)?.[1] ?? (suggestion ? `did you mean ${suggestion}?` : undefined);
  return { code: 'E_USAGE', message: suggestion ? first! : [first, ...rest].join('\n'), ...(hint ? { hint } : {}) };
}
