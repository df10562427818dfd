import { sectionText } from '../template-text';

/**
 * offline: the download failed (no network, the registry refused); integrity: the bytes were not
 * the pinned ones; failed: they could not be stored; not_installed: no copy and nowhere to download to.
 */
export type PackageProblem = 'offline' | 'integrity' | 'failed' | 'not_installed';

/** A library a feature needs could not be had: the message says why and what the user can do. */
export class PackageUnavailableError extends Error {
  constructor(
    readonly problem: PackageProblem,
    readonly packageName: string,
    vars: Record<string, string>,
  ) {
    super(sectionText('packages/texts.md', problem, { PACKAGE: packageName, ...vars }));
    this.name = 'PackageUnavailableError';
  }
}
