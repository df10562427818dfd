// `npm run bench -- tools`: the workhorse tools. Each part returns its rows; one line per part.
import { printTable } from '../stats';
import { commandBench } from './command';
import { editBench } from './edit';
import { searchBench } from './search';
import { shellSnapshotBench } from './shell-snapshot';

export async function main(): Promise<void> {
  printTable('edit_file: peer corpus and latency', await editBench());
  printTable('search: text search vs. bare ripgrep', await searchBench());
  printTable('run_command: per-command overhead vs. a bare spawn', await commandBench());
  printTable('run_command: the session\'s first command with the shell profile read vs. without', await shellSnapshotBench());
}
