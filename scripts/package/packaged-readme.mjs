// The README as the .vsix carries it. The screenshots (docs/screenshots/, made by the e2e run) stay
// out of the package: the largest .vsix is close to its 5 MB budget, and with no public repository
// there is no address the Marketplace could load them from. So the block that shows them is cut, and
// whatever relative link is left must point at a file the package has.

const BLOCK = /<!-- screenshots -->[\s\S]*?<!-- \/screenshots -->\n?/g;

/** The README's text without its screenshots block. */
export function packagedReadme(text) {
  return text.replace(BLOCK, '');
}

/** The relative link and image targets of a markdown text (web, mail and in-page links left out). */
export function relativeTargets(text) {
  return [...text.matchAll(/!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target))
    .map((target) => decodeURI(target.replace(/#.*$/, '')));
}
