import { pathGlob } from '../../files/path-globs';

/**
 * The search tool's `glob` argument, as ripgrep's `--glob` reads it: without a slash it matches the
 * file name anywhere ("*.ts"), with one the workspace-relative path ("src/**\/*.ts"), a leading "/"
 * anchors at the root; braces expand ("*.{ts,tsx}"); a trailing "/" matches folders only; a leading
 * "!" excludes instead.
 */
export class GlobFilter {
  private readonly negated: boolean;
  private readonly dirOnly: boolean;
  private readonly matches: (path: string) => boolean;

  constructor(readonly glob: string) {
    let text = glob.trim();
    this.negated = text.startsWith('!');
    if (this.negated || text.startsWith('\\!')) text = text.slice(1);
    this.dirOnly = text.endsWith('/');
    if (text.replace(/\/+$/, '') === '') throw new Error(`empty glob "${glob}"`);
    this.matches = pathGlob(text);
  }

  acceptsFile(workspaceRelPath: string): boolean {
    const hit = !this.dirOnly && this.matches(workspaceRelPath);
    return this.negated ? !hit : hit;
  }

  /** Only an excluding glob can prune a whole folder. */
  prunesDir(workspaceRelPath: string): boolean {
    return this.negated && this.matches(workspaceRelPath);
  }
}
