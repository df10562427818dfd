export * from './staged-compactor';
export * from './observation-stages';
export * from './placeholders';
export * from './overflow';
