import { sectionText } from '../template-text';

/** Compiled in by esbuild.config.mjs from package-lock.json (scripts/on-demand-packages.mjs). */
declare const OPENDEV_PACKAGE_PINS: Record<string, { version: string; integrity: string }> | undefined;

/** A library the extension may download: the exact version and the registry tarball's SRI hash (sha512). */
export interface PackagePin {
  name: string;
  version: string;
  integrity: string;
}

/** The pin of `name`, if it is one the extension downloads on first use. */
export function packagePin(name: string): PackagePin | undefined {
  const pins = typeof OPENDEV_PACKAGE_PINS === 'object' ? OPENDEV_PACKAGE_PINS : {};
  const pin = pins[name];
  return pin ? { name, ...pin } : undefined;
}

/** What needs `name`, in words (templates/packages/texts.md). */
export function packageFeature(name: string): string {
  return sectionText('packages/texts.md', `feature_${name.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`);
}
