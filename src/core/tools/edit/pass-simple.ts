import type { EditPass } from './pass';
import { allIndexesOf } from './text-lines';

/** Pass 1: old_content exactly as written. */
export const simplePass: EditPass = {
  name: 'simple',
  find(file, find) {
    return allIndexesOf(file.text, find).map((start) => ({ start, end: start + find.length, text: find }));
  },
};
