import * as z from 'zod';
import { editOneSymbol } from './symbols/edit-one-symbol';
import { planBodyReplacement } from './symbols/symbol-edits';
import type { Tool } from './tool';

const schema = z.lazy(() => z.object({
  file_path: z.string().min(1).describe('File declaring the symbol.'),
  name_path: z.string().min(1).describe('e.g. Shape.area'),
  body: z.string().describe('Only what goes inside { } (Python: after the docstring).'),
}));

/** Replaces a function's, method's or class's body; its signature, decorators and doc comment or docstring stay. */
export const replaceSymbolBodyTool: Tool<typeof schema> = {
  name: 'replace_symbol_body',
  category: 'file',
  readOnly: false,
  schema,
  approval: (args) => ({ kind: 'file', path: args.file_path }),
  run(args, ctx) {
    return editOneSymbol(ctx, args, 'Replaced the body of', (source, symbol, style) => planBodyReplacement(source, symbol, args.body, style));
  },
};
