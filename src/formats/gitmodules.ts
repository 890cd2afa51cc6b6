// A repository's `.gitmodules` (git-config syntax): the submodules a clone holds as empty folders unless they are
// fetched too, which skills does not do. Read to say so, by path and URL, instead of finding no skill there.

export interface Submodule {
  /** Its folder in the repository, forward slashes, no trailing slash. */
  path: string;
  url?: string;
}

const SECTION = /^\s*\[\s*submodule\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:[#;].*)?$/;
const ENTRY = /^\s*(path|url)\s*=\s*(.*?)\s*$/i;

/** The submodules a `.gitmodules` text names (those with a path), in the order written. */
export function parseGitmodules(text: string): Submodule[] {
  const out: Submodule[] = [];
  let current: Partial<Submodule> | undefined;
  const close = () => {
    if (current?.path) out.push({ path: current.path, ...(current.url ? { url: current.url } : {}) });
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (SECTION.test(line)) {
      close();
      current = {};
      continue;
    }
    if (/^\s*\[/.test(line)) {
      // Another kind of section: its entries are not a submodule's.
      close();
      current = undefined;
      continue;
    }
    const m = ENTRY.exec(line);
    if (!m || !current) continue;
    const value = unquote(m[2]!);
    if (m[1]!.toLowerCase() === 'path') current.path = value.replace(/\\/g, '/').replace(/^\.\/+|\/+$/g, '');
    else current.url = value;
  }
  close();
  return out;
}

/** A git-config value: quotes removed, `\"` and `\\` read, a comment after it dropped. */
function unquote(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) out += raw[++i];
    else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}
