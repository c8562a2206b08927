// Which files are madang's, by their content: a card or deck file names its ruleset at the top
// level (`ruleset: NAME`), a ruleset.yaml declares `players:` beside `files:` or `cards:`. A
// folder is madang's when it holds a madang.toml marker (any content) or a ruleset.yaml.
// No dependency on vscode, so that the tests run it with plain node.
const RULESET_KEY = /^ruleset:[ \t]*["']?[\w.\/-]+/m;
const PLAYERS_KEY = /^players:/m;
const FILES_KEY = /^(files|cards):/m;
const MARKERS = ["madang.toml", "ruleset.yaml"];

function isMadangYaml(text) {
  const head = text.slice(0, 20000);
  return RULESET_KEY.test(head) || (PLAYERS_KEY.test(head) && FILES_KEY.test(head));
}

function isMadangDocument(languageId, fileName, text) {
  if (languageId === "madang" || fileName.endsWith(".madang")) return true;
  if (languageId !== "yaml" && !/\.ya?ml$/.test(fileName)) return false;
  return fileName.endsWith("ruleset.yaml") || isMadangYaml(text);
}

module.exports = { isMadangYaml, isMadangDocument, MARKERS };
