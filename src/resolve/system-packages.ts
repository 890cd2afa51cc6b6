import { execaSync } from 'execa';

/** What one run of a package manager says: its exit code and output, or that the program is not there. */
export interface PackageQuery {
  missingProgram: boolean;
  exitCode?: number;
  stdout: string;
}

export type PackageRunner = (file: string, args: string[]) => PackageQuery;

/** Names a package manager could take for an option (`-x`) or that no manager uses are not asked about. */
const PACKAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9.+_@/-]*$/;

/**
 * `(name) => installed?` for the platform's package manager: dpkg on Debian and Ubuntu, Homebrew on macOS.
 * undefined means "no way to know" (another platform, no such manager): callers warn only on false.
 */
export function systemPackageChecker(
  platform: NodeJS.Platform,
  run: PackageRunner = runSync,
): (name: string) => boolean | undefined {
  const query = QUERIES[platform];
  const answers = new Map<string, boolean | undefined>();
  let noManager = false;
  return (name) => {
    if (!query || noManager || !PACKAGE_NAME.test(name)) return undefined;
    if (answers.has(name)) return answers.get(name);
    const r = run(query.file, query.args(name));
    if (r.missingProgram) {
      noManager = true;
      return undefined;
    }
    const answer = query.read(r);
    answers.set(name, answer);
    return answer;
  };
}

const QUERIES: Partial<
  Record<
    NodeJS.Platform,
    { file: string; args: (name: string) => string[]; read: (r: PackageQuery) => boolean | undefined }
  >
> = {
  // Status is "want error state": only the state "installed" counts (not half-installed, not config-files).
  // Exit 1 is "no packages found".
  linux: {
    file: 'dpkg-query',
    args: (name) => ['-W', '-f=${Status}', name],
    read: (r) =>
      r.exitCode === 0 ? r.stdout.trim().split(/\s+/).at(-1) === 'installed' : r.exitCode === 1 ? false : undefined,
  },
  darwin: {
    file: 'brew',
    args: (name) => ['list', '--versions', name],
    read: (r) => (r.exitCode === 0 ? r.stdout.trim() !== '' : r.exitCode === 1 ? false : undefined),
  },
};

function runSync(file: string, args: string[]): PackageQuery {
  const r = execaSync(file, args, { reject: false, timeout: 10_000, stdin: 'ignore', env: { LC_ALL: 'C' } });
  return {
    missingProgram: (r as { code?: string }).code === 'ENOENT',
    exitCode: r.exitCode,
    stdout: typeof r.stdout === 'string' ? r.stdout : '',
  };
}
