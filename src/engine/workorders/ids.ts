// Work-order identity: files are `wo-NN-<slug>.md`, sidecars use the short id `wo-NN`.

const SHORT_ID = /^wo-[0-9]+$/;

export function isShortId(value: string): boolean {
  return SHORT_ID.test(value);
}

/** The file name without a trailing `.md`. */
export function baseName(fileName: string): string {
  const name = fileName.slice(fileName.lastIndexOf('/') + 1);
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

/** The filename's leading `wo-<digits>`, else the whole base name (the gates' rule). */
export function shortIdFromFileName(fileName: string): string {
  const base = baseName(fileName);
  const match = /^(wo-[0-9]+)/.exec(base);
  return match?.[1] ?? base;
}

/** Frontmatter `id` when it is exactly `wo-<digits>`, else from the file name (reconcile's rule). */
export function shortId(fileName: string, frontmatterId: string): string {
  return isShortId(frontmatterId) ? frontmatterId : shortIdFromFileName(fileName);
}

/** Sidecar file names of one work order. */
export function sidecars(id: string): { run: string; review: string; critique: string; halt: string } {
  return {
    run: `${id}.run.json`,
    review: `${id}._review.json`,
    critique: `${id}._critique.json`,
    halt: `${id}.HALT`,
  };
}

/** Version-aware comparison of ids/names (wo-2 before wo-10), for queue and batch order. */
export function compareVersion(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** Plain byte-order comparison (what `sort` in the C locale gives, the kernels' file order). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
