// A Git LFS pointer: the small text file git keeps in place of a file whose content lives in LFS storage
// (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md). A clone without `git lfs` holds the pointer alone, so
// a skill installed from such a repository has, say, a script that is three lines of "version … oid … size …".

/** The spec's first line, which every pointer starts with. */
const FIRST = 'version https://git-lfs.github.com/spec/v1\n';
/** Pointers are small: the spec caps them at 1024 bytes. */
export const MAX_POINTER_BYTES = 1024;
const OID = /^oid sha256:[0-9a-f]{64}$/m;
const SIZE = /^size (\d{1,20})$/m;

/** The size of the file a pointer stands for, when `text` is an LFS pointer; undefined otherwise. */
export function lfsPointerSize(text: string): number | undefined {
  if (text.length > MAX_POINTER_BYTES || !text.startsWith(FIRST) || !OID.test(text)) return undefined;
  const size = SIZE.exec(text);
  return size ? Number(size[1]) : undefined;
}
