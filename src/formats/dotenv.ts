// A .env file (and .env.example): which variables its lines assign. Pure.

const ASSIGNMENT = /^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_]*)\s*=/;

/** The variable a line of a .env file assigns (`NAME=…`, `export NAME=…`) and the 1-based column of its name. */
export function dotenvAssignment(line: string): { name: string; column: number } | undefined {
  const m = ASSIGNMENT.exec(line);
  return m ? { name: m[2]!, column: m[1]!.length + 1 } : undefined;
}

/** Names that a .env file sets (`NAME=…` or `export NAME=…`), comments and blank lines skipped. */
export function parseEnvNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const a = dotenvAssignment(line);
    if (a) names.push(a.name);
  }
  return names;
}
