import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';

/** The typed face of test/host/e2e.mjs (plain JS, loaded with import()). */
export interface Workbench {
  page: Page;
  /** The workspace folder the workbench opened (a fresh copy of the sample workspace). */
  workspace: string;
  close(): Promise<void>;
  screenshot(name: string): Promise<string>;
}

export interface E2eHost {
  openWorkbench(options: { userSettings?: Record<string, unknown> }): Promise<Workbench>;
  runCommand(page: Page, title: string): Promise<void>;
  findFrame(page: Page, predicate: (frame: Frame) => Promise<boolean>, timeoutMs?: number): Promise<Frame>;
}

const repo = join(__dirname, '../../..');

export async function loadE2eHost(): Promise<E2eHost> {
  return (await import(join(repo, 'test/host/e2e.mjs'))) as E2eHost;
}
