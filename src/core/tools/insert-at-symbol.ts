import * as z from 'zod';
import { editOneSymbol } from './symbols/edit-one-symbol';
import { planInsertion } from './symbols/symbol-edits';
import type { Tool } from './tool';

const schema = z.lazy(() => z.object({
  file_path: z.string().min(1).describe('File declaring the symbol.'),
  name_path: z.string().min(1).describe('e.g. Shape.area'),
  content: z.string().describe('The code to insert.'),
}));

/** insert_before_symbol / insert_after_symbol: new code beside a symbol, at its indentation, a blank line between. */
function insertTool(where: 'before' | 'after'): Tool<typeof schema> {
  return {
    name: `insert_${where}_symbol`,
    category: 'file',
    readOnly: false,
    schema,
    approval: (args) => ({ kind: 'file', path: args.file_path }),
    run(args, ctx) {
      return editOneSymbol(ctx, args, `Inserted code ${where}`, (source, symbol) => planInsertion(source, symbol, args.content, where));
    },
  };
}

export const insertBeforeSymbolTool = insertTool('before');
export const insertAfterSymbolTool = insertTool('after');
