// The YAML parser (eemeli/yaml): dist/vendor/yaml.js, loaded when a frontmatter header is not one the
// build already read (see src/core/frontmatter.ts and scripts/lazy-bundles.mjs; reach it only
// through yamlLibrary()).
export { parseDocument, visit } from 'yaml';
export type { YAMLError } from 'yaml';
